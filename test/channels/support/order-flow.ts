/**
 * Orders from two owners that cross often, sent over gRPC SubmitTx one after another until
 * stopped (the channel tests against the real node). `stop()` resolves with the last order
 * id sent; refusals are ignored (the tests read what the node stored and published).
 */
import { type ChainClient, signedOrderRequest } from '../../../src/chain/api/client/index.js';
import type { KeyPair, Side } from '../../../src/sdk/index.js';
import { mintOf } from '../../chain/support/flow.js';

export interface OrderFlowSpec {
  owners: [KeyPair, KeyPair]; // the seller on odd ids, the buyer on even ones
  mints: [number, number]; // base and quote mint seeds (mintOf)
  prices: { from: number; spread: number }; // price = from + (id % spread)
  maxQuantity: number; // quantity = 1 + (id % maxQuantity)
}

export function orderFlow(client: ChainClient, firstId: number, spec: OrderFlowSpec): { stop(): Promise<number> } {
  let flowing = true;
  let id = firstId;
  const done = (async () => {
    while (flowing) {
      const i = ++id;
      const key = i % 2 ? spec.owners[0] : spec.owners[1];
      const side: Side = i % 2 ? 'Sell' : 'Buy';
      const intent = {
        orderId: BigInt(i),
        owner: key.publicKey,
        side,
        price: BigInt(spec.prices.from + (i % spec.prices.spread)),
        quantity: BigInt(1 + (i % spec.maxQuantity)),
        expiry: 0n,
        baseMint: mintOf(spec.mints[0]),
        quoteMint: mintOf(spec.mints[1]),
      };
      await client.submit(signedOrderRequest(intent, key.secretKey), 5_000).catch(() => undefined);
    }
    return id;
  })();
  return {
    stop: async () => {
      flowing = false;
      return done;
    },
  };
}
