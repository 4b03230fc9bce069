/**
 * A steady flow of signed orders into a node's order book API (spec/2), as trading firms
 * send them: a few workers, each its own key, Buy and Sell around one price so some
 * trade. Errors (a node killed mid-flow) are counted, not thrown; stop() ends the flow.
 */
import { buildOrderBody, DexClient, keyPairFromSeed, toBase58, type OrderIntent } from '../../src/sdk/index.js';

export interface OrderFlow {
  marketId: string;
  placed(): number;
  errors(): number;
  /** Stop sending; resolves with the number of orders the node acknowledged. */
  stop(): Promise<number>;
}

export const FLOW_BASE = new Uint8Array(32).fill(7);
export const FLOW_QUOTE = new Uint8Array(32).fill(8);

/** The flow's market on this node (created if missing). */
export async function flowMarket(dexUrl: string): Promise<string> {
  const dex = new DexClient(dexUrl);
  const existing = (await dex.listMarkets()).find((m) => m.name === 'SEVEN/EIGHT');
  if (existing) return existing.market_id;
  return (
    await dex.createMarket({ base_mint: toBase58(FLOW_BASE), quote_mint: toBase58(FLOW_QUOTE), name: 'SEVEN/EIGHT' })
  ).market_id;
}

/** `seed` keeps keys (and so order ids) of different flows apart. */
export async function startOrderFlow(
  dexUrl: string,
  options: { seed?: number; concurrency?: number; pauseMs?: number } = {},
): Promise<OrderFlow> {
  const dex = new DexClient(dexUrl);
  const marketId = await flowMarket(dexUrl);
  const seed = options.seed ?? 1;
  let running = true;
  let placed = 0;
  let errors = 0;
  const workers = Array.from({ length: options.concurrency ?? 4 }, async (_, w) => {
    const keySeed = new Uint8Array(32).fill(seed & 0xff);
    keySeed[1] = w;
    const key = keyPairFromSeed(keySeed);
    for (let n = 1n; running; n++) {
      const intent: OrderIntent = {
        orderId: n,
        owner: key.publicKey,
        side: (Number(n) + w) % 2 === 0 ? 'Buy' : 'Sell',
        price: 100n + (n % 3n),
        quantity: 1n + (n % 5n),
        expiry: 0n,
        baseMint: FLOW_BASE,
        quoteMint: FLOW_QUOTE,
      };
      try {
        await dex.placeOrder(buildOrderBody(intent, key.secretKey));
        placed += 1;
      } catch {
        errors += 1;
        await new Promise((r) => setTimeout(r, 20));
      }
      if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
    }
  });
  return {
    marketId,
    placed: () => placed,
    errors: () => errors,
    async stop() {
      running = false;
      await Promise.all(workers);
      return placed;
    },
  };
}
