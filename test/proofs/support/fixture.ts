/**
 * A deterministic little chain for proof tests and docs/proof-vectors.json: four ticks from
 * genesis with real VDF outputs and proofs (reference engine, T = 20), carrying 7, 3, 1 and
 * 5 order book transactions signed for real (deterministic keys, fixed tx ids and
 * timestamps), applied to the real engine. What happens:
 *
 *   tick 1 (7): market BASE/QUOTE; alice #1 Sell 100x5, alice #2 Sell 101x5, bob #1 Buy 90x5,
 *               bob #2 Buy 91x3, carol #1 Sell 105x2, carol #2 Buy 80x1 (all rest, slots 0..5)
 *   tick 2 (3): alice cancels #2 (slot 1 freed); bob #3 Buy 100x5 fills alice #1 on arrival
 *               (slot 0 freed; bob #3 never rests); carol #3 Sell 110x4 rests in slot 0
 *   tick 3 (1): dave #1 Buy 95x1 rests in slot 1 (alice #2's old slot)
 *   tick 4 (5): dave #2..#6 Buy 60..64x1, resting in slots 6..10
 *   tick 5 (0): an empty tick one second later, which closes block 1
 *
 * With `massCancel`, tick 4 also carries dave's mass cancel of his buys (index 5), which
 * ends all six of his orders (a variant for the ended_by of a mass cancel; not the vectors).
 *
 * The chain's block builder (--block-ms 1000) runs beside the engine: every tick 1..4 is in
 * the window of block 1, which tick 5 closes; its BlockRecord and ExplorerTransactions are
 * the trusted block and the explorer ids of the vectors.
 */
import { OrderBookEngine, prepareTick } from '../../../src/dex/engine/index.js';
import type { DexState } from '../../../src/dex/engine/index.js';
import { merkleRoot } from '../../../src/crypto/merkle.js';
import { transactionHash } from '../../../src/core/tx-hash.js';
import type { OrderedTransaction, Tick, Transaction } from '../../../src/core/types.js';
import { restTick } from '../../../src/vdf/index.js';
import { marketIdOf } from '../../../src/core/market-id.js';
import { GENESIS_OUTPUT, referenceVdfEngine } from '../../../src/vdf/index.js';
import { ingestionDigest, tickHeaderDigest } from '../../../src/vdf/binding.js';
import { usedIdLeaf } from '../../../src/proofs/index.js';
import type { KeyPair } from '../../../src/crypto/keys.js';
import { cancelAllTx, cancelTx, keyOf, marketTx, mintOf, orderTx } from '../../chain/support/flow.js';
import { BlockBuilder } from '../../../src/chain/core/builder.js';
import type { BlockRecord, ExplorerTransaction } from '../../../src/chain/core/interface.js';

export const BLOCK_MS = 1000;

export const EPOCH_US = 1_767_225_600_000_000;
export const ITERATIONS = 20;

export const alice = keyOf(11);
export const bob = keyOf(12);
export const carol = keyOf(13);
export const dave = keyOf(14);
export const MARKET_ID = marketIdOf(mintOf(1), mintOf(2));

export interface Fixture {
  ticks: Tick[];
  /** What GET /api/v1/tick/{n} serves for each tick (index n - 1). */
  served: unknown[];
  state: DexState;
  /** Every used-id leaf in order (the chain's accepted order transactions). */
  usedLeaves: Uint8Array[];
  /** Slot each order rested in, by `${owner hex}:${order id}`. */
  restedIn: Map<string, number>;
  /** Tick 5: empty, closes block 1 (not part of `ticks`: the state is the one after tick 4). */
  closing: Tick;
  /** Block 1 (ticks 1..4) as the chain builds it, and its explorer transactions by continuum_sequence. */
  block: BlockRecord;
  explorer: Map<bigint, ExplorerTransaction>;
}

export const orderKey = (k: KeyPair, id: number): string => `${Buffer.from(k.publicKey).toString('hex')}:${id}`;

function fixed(tx: Transaction, tickNumber: number, index: number): Transaction {
  // Deterministic envelope: flow.ts stamps a random uuid and the wall clock.
  return {
    ...tx,
    txId: `${tx.txId.split('-').slice(0, 2).join('-')}-vector-${tickNumber}-${index}`,
    timestamp: BigInt(EPOCH_US + tickNumber * 200_000 - 1000 + index),
  };
}

function plan(massCancel: boolean): Transaction[][] {
  const o = (k: KeyPair, id: number, side: 'Buy' | 'Sell', price: number, qty: number): Transaction =>
    orderTx(k, id, side, price, qty, 1, 2);
  return [
    [
      marketTx(1, 2, 'BASE/QUOTE'),
      o(alice, 1, 'Sell', 100, 5),
      o(alice, 2, 'Sell', 101, 5),
      o(bob, 1, 'Buy', 90, 5),
      o(bob, 2, 'Buy', 91, 3),
      o(carol, 1, 'Sell', 105, 2),
      o(carol, 2, 'Buy', 80, 1),
    ],
    [cancelTx(alice, 2, 1, 2), o(bob, 3, 'Buy', 100, 5), o(carol, 3, 'Sell', 110, 4)],
    [o(dave, 1, 'Buy', 95, 1)],
    [
      ...[60, 61, 62, 63, 64].map((p, i) => o(dave, 2 + i, 'Buy', p, 1)),
      ...(massCancel ? [cancelAllTx(dave, 1, 1, 2, 'Buy')] : []),
    ],
  ];
}

export function makeFixture(massCancel = false): Fixture {
  const vdf = referenceVdfEngine();
  const engine = new OrderBookEngine();
  const builder = new BlockBuilder(BLOCK_MS);
  const chainEngine = new OrderBookEngine(); // the chain's own engine, asked for roots before closing ticks
  const ticks: Tick[] = [];
  const usedLeaves: Uint8Array[] = [];
  const restedIn = new Map<string, number>();
  const explorer = new Map<bigint, ExplorerTransaction>();
  let block: BlockRecord | undefined;
  let prev = GENESIS_OUTPUT;
  let sequence = 1;
  const seal = (n: number, timestamp: number, transactions: OrderedTransaction[]): Tick => {
    const batchHash = merkleRoot(transactions.map((o) => o.txHash));
    const header = tickHeaderDigest({
      tickNumber: n,
      timestamp,
      firstSequence: transactions[0]?.sequenceNumber ?? sequence,
      txCount: transactions.length,
      batchHash,
      ingestionDigest: ingestionDigest(transactions.map((o) => o.ingestionTimestamp)),
    });
    const input = vdf.hashToGroup(n, prev, header);
    const output = vdf.evaluate(input, ITERATIONS);
    const tick: Tick = {
      tickNumber: n,
      vdfProof: { input, output, proof: vdf.prove(input, output, ITERATIONS), iterations: ITERATIONS },
      transactions,
      batchHash,
      timestamp,
      previousOutput: prev,
    };
    prev = output;
    const step = builder.apply(
      chainEngine.apply(
        prepareTick(tick, () => true),
        { rootBefore: builder.closes(tick) },
      ),
    );
    if (step.cut) block = step.cut;
    for (const t of step.batch?.transactions ?? []) explorer.set(t.continuum_sequence, t);
    return tick;
  };
  plan(massCancel).forEach((txs, i) => {
    const n = i + 1;
    const timestamp = EPOCH_US + n * 200_000;
    const transactions: OrderedTransaction[] = txs.map((t, j) => {
      const transaction = fixed(t, n, j);
      return {
        transaction,
        sequenceNumber: sequence++,
        txHash: transactionHash(transaction),
        ingestionTimestamp: timestamp - 100 + j,
      };
    });
    const tick = seal(n, timestamp, transactions);
    ticks.push(tick);
    const applied = engine.apply(prepareTick(tick, () => true)); // signed for real above
    for (const a of applied.txs) {
      if (!a.outcome.ok) throw new Error(`fixture transaction ${n}/${a.index} refused: ${a.outcome.message}`);
      if (a.outcome.kind !== 'order') continue;
      const ord = a.outcome.order;
      usedLeaves.push(usedIdLeaf(ord.owner, ord.orderId));
      if (ord.open) restedIn.set(`${Buffer.from(ord.owner).toString('hex')}:${ord.orderId}`, ord.slot);
    }
  });
  const closing = seal(ticks.length + 1, EPOCH_US + BLOCK_MS * 1000, []);
  if (block?.height !== 1 || block.last_tick !== ticks.length)
    throw new Error('fixture: tick 5 did not close block 1 over ticks 1..4');
  return {
    ticks,
    served: ticks.map((t) => restTick(t)),
    state: engine.state,
    usedLeaves,
    restedIn,
    closing,
    block,
    explorer,
  };
}
