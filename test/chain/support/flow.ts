/**
 * Test helpers of the chain: hand-made ticks carrying order book transactions (signed
 * for real with deterministic keys), a deterministic random flow of them, and a way to
 * apply ticks to an engine + block builder in process.
 */
import {
  type OrderBookEngine,
  prepareTick,
  type AppliedTick,
  encodeCancelPayload,
  encodeCreateMarket,
  encodePlaceOrderIntent,
  toTransaction,
} from '../../../src/dex/engine/index.js';
import { encodeCancelAll } from '../../../src/dex/engine/index.js';
import { digestNonce } from '../../../src/dex/order-entry.js';
import { signInline } from '../../../src/dex/verifier.js';
import { keyPairFromSeed, type KeyPair } from '../../../src/crypto/keys.js';
import { verifyOne } from '../../../src/crypto/ed25519.js';
import { cancelMessage, orderMessage, type OrderIntent, type Side } from '../../../src/core/order-messages.js';
import { cancelAllMessage, encodeCancelAllData, type CancelAllData } from '../../../src/core/order-messages.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { transactionHash } from '../../../src/core/tx-hash.js';
import type { TickSource } from '../../../src/dex/applier.js';
import type { OrderedTransaction, SequencerStatus, Tick, Transaction } from '../../../src/core/types.js';

export function keyOf(n: number): KeyPair {
  const seed = new Uint8Array(32).fill(n & 0xff);
  seed[0] = 0xc4;
  return keyPairFromSeed(seed);
}

export function mintOf(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

export function marketTx(base: number, quote: number, name: string, kind: 'Spot' | 'Perp' = 'Spot'): Transaction {
  return toTransaction(
    'market',
    encodeCreateMarket({ baseMint: mintOf(base), quoteMint: mintOf(quote), name, marketKind: kind }),
  );
}

export function orderTx(
  key: KeyPair,
  orderId: number | bigint,
  side: Side,
  price: number | bigint,
  quantity: number | bigint,
  base: number,
  quote: number,
  opts: { expiry?: bigint; badSignature?: boolean } = {},
): Transaction {
  const intent: OrderIntent = {
    orderId: BigInt(orderId),
    owner: key.publicKey,
    side,
    price: BigInt(price),
    quantity: BigInt(quantity),
    expiry: opts.expiry ?? 0n,
    baseMint: mintOf(base),
    quoteMint: mintOf(quote),
  };
  const message = orderMessage(intent);
  const signature = signInline(key.secretKey, message);
  if (opts.badSignature) signature[0] ^= 1;
  return toTransaction(
    'order',
    encodePlaceOrderIntent(intent, signature),
    key.publicKey,
    signature,
    digestNonce(message),
  );
}

export function cancelTx(key: KeyPair, orderId: number | bigint, base: number, quote: number): Transaction {
  const marketId = marketIdOf(mintOf(base), mintOf(quote));
  const message = cancelMessage({ orderId: BigInt(orderId), owner: key.publicKey, marketId });
  const signature = signInline(key.secretKey, message);
  return toTransaction(
    'cancel',
    encodeCancelPayload(BigInt(orderId), key.publicKey, marketId, signature),
    key.publicKey,
    signature,
    digestNonce(message),
  );
}

/** A signed mass cancel; `nonce` overrides the digest nonce (a replay the sequencer does not recognise). */
export function cancelAllTx(
  key: KeyPair,
  requestId: number | bigint,
  base: number,
  quote: number,
  side?: Side,
  nonce?: bigint,
): Transaction {
  const data: CancelAllData = {
    requestId: BigInt(requestId),
    owner: key.publicKey,
    marketId: marketIdOf(mintOf(base), mintOf(quote)),
  };
  if (side !== undefined) data.side = side;
  const message = cancelAllMessage(data);
  const signature = signInline(key.secretKey, message);
  return toTransaction(
    'cancel-all',
    encodeCancelAll(encodeCancelAllData(data), signature),
    key.publicKey,
    signature,
    nonce ?? digestNonce(message),
  );
}

let sequence = 0;

/** A tick (with fake VDF fields: the chain reads only numbers, timestamps and transactions). */
export function tickOf(tickNumber: number, timestampUs: number, txs: Transaction[]): Tick {
  const transactions: OrderedTransaction[] = txs.map((transaction) => ({
    transaction,
    sequenceNumber: ++sequence,
    txHash: transactionHash(transaction),
    ingestionTimestamp: timestampUs,
  }));
  const batchHash = new Uint8Array(32);
  new DataView(batchHash.buffer).setUint32(0, tickNumber);
  return {
    tickNumber,
    vdfProof: { input: new Uint8Array(256), output: new Uint8Array(256), proof: new Uint8Array(256), iterations: 1 },
    transactions,
    batchHash,
    timestamp: timestampUs,
    previousOutput: new Uint8Array(256),
  };
}

/**
 * A deterministic flow of `n` ticks, 1 ms apart from `t0`: two markets, six owners, limit
 * orders around a mid price (about half cross), some cancels, some empty ticks, a few
 * bad signatures and replays (refused: not in blocks), one expired order.
 */
export function makeTicks(n: number, seed = 7, t0 = 1_700_000_000_000_000): Tick[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
  const owners = [1, 2, 3, 4, 5, 6].map(keyOf);
  const used: Array<{ key: KeyPair; id: number; base: number; quote: number }> = [];
  const nextId = new Map<KeyPair, number>();
  const ticks: Tick[] = [];
  for (let t = 1; t <= n; t++) {
    const txs: Transaction[] = [];
    if (t === 1) txs.push(marketTx(11, 12, 'ELEVEN/TWELVE'));
    if (t === 3) txs.push(marketTx(21, 22, 'PERP-21', 'Perp'), marketTx(12, 11, 'DUPLICATE PAIR'));
    if (t > 1 && rnd() > 0.25) {
      const k = 1 + Math.floor(rnd() * 4);
      for (let i = 0; i < k; i++) {
        const key = owners[Math.floor(rnd() * owners.length)]!;
        const [base, quote] = t > 3 && rnd() < 0.4 ? [21, 22] : [11, 12];
        const r = rnd();
        if (r < 0.15 && used.length > 0) {
          const u = used[Math.floor(rnd() * used.length)]!;
          txs.push(cancelTx(u.key, u.id, u.base, u.quote));
        } else if (r < 0.18 && used.length > 0) {
          const u = used[Math.floor(rnd() * used.length)]!;
          txs.push(orderTx(u.key, u.id, 'Buy', 100, 1, u.base, u.quote)); // replayed order id
        } else if (r < 0.2) {
          txs.push(orderTx(key, 900_000 + t, 'Sell', 100, 1, base, quote, { badSignature: true }));
        } else if (r < 0.21) {
          txs.push(orderTx(key, 800_000 + t, 'Sell', 100, 1, base, quote, { expiry: 1n }));
        } else {
          const id = (nextId.get(key) ?? 0) + 1;
          nextId.set(key, id);
          const side: Side = rnd() < 0.5 ? 'Buy' : 'Sell';
          txs.push(
            orderTx(key, id, side, 95 + Math.floor(rnd() * 11), 1 + Math.floor(rnd() * 9), base, quote, {
              expiry: rnd() < 0.1 ? 1_700_000_000n + BigInt(Math.floor(rnd() * 3)) : 0n,
            }),
          );
          used.push({ key, id, base, quote });
        }
      }
    }
    ticks.push(tickOf(t, t0 + t * 1000, txs));
  }
  return ticks;
}

/** ed25519 with node:crypto, the code the node's pool runs. */
export const checkSignature = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean =>
  verifyOne({ publicKey, message, signature });

/**
 * Apply ticks to an engine with real signature checks done here (the node does them in a
 * pool). `visit` sees each record while it is current (its stateRoot() still answers);
 * `rootBefore` asks for the root before a tick (what a block builder needs).
 */
export function applyAll(
  engine: OrderBookEngine,
  ticks: Tick[],
  verify: (pk: Uint8Array, m: Uint8Array, s: Uint8Array) => boolean,
  opts: { rootBefore?: (t: Tick) => boolean; visit?: (r: AppliedTick) => void } = {},
): AppliedTick[] {
  return ticks.map((t) => {
    const p = prepareTick(t);
    p.verifyAt.forEach((at, k) => {
      const c = p.toVerify[k]!;
      p.items[at]!.verified = verify(c.publicKey, c.message, c.signature);
    });
    const r = engine.apply(p, { rootBefore: opts.rootBefore?.(t) ?? false });
    opts.visit?.(r);
    return r;
  });
}

/** Apply ticks and summarize each record while it is current. */
export function summarizeAll(
  engine: OrderBookEngine,
  ticks: Tick[],
  verify: (pk: Uint8Array, m: Uint8Array, s: Uint8Array) => boolean,
): unknown[] {
  const out: unknown[] = [];
  applyAll(engine, ticks, verify, { visit: (r) => out.push(summarize(r)) });
  return out;
}

/** A comparable summary of an applied-tick record (outcomes, trades, activity, root). */
export function summarize(r: AppliedTick): unknown {
  return {
    tick: r.tick.tickNumber,
    root: Buffer.from(r.stateRoot()).toString('hex'),
    txs: r.txs.map((a) => ({
      index: a.index,
      seq: a.continuumSequence.toString(),
      ok: a.outcome.ok,
      code: a.outcome.ok ? a.outcome.kind : a.outcome.code,
      trades:
        a.outcome.ok && a.outcome.kind === 'order'
          ? a.outcome.result.trades.map((t) => `${t.tradeId}:${t.price}x${t.quantity}:${t.maker.orderId}`)
          : [],
      filled: a.outcome.ok && a.outcome.kind === 'order' ? a.outcome.result.filled.toString() : undefined,
      cancelled: a.outcome.ok && a.outcome.kind === 'cancel' ? a.outcome.cancelled.toString() : undefined,
    })),
    markets: r.markets.map((m) => ({
      id: m.market.info.marketId,
      orders: m.orders,
      cancels: m.cancels,
      matched: m.matchedOrders,
      trades: m.trades,
      created: m.created,
    })),
  };
}

/** A tick source over recorded ticks 1..n (no live ticks): what the applier replays in benches and tests. */
export function recordedTicks(ticks: Tick[]): TickSource {
  const status = { currentTick: ticks.length } as SequencerStatus;
  return {
    onTick: () => () => undefined,
    status: () => status,
    async *readTicks(from, to) {
      for (let n = from; n <= to; n++) yield ticks[n - 1]!;
    },
  };
}
