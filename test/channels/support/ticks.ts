/**
 * Test support: applied ticks from the real order book engine without a sequencer. Each
 * call applies the given decoded transactions as one tick (fake VDF fields, the given
 * signature verdicts) and returns the engine's AppliedTick, exactly what the node's applier
 * hands its consumers.
 */
import type { OrderedTransaction, Tick } from '../../../src/core/types.js';
import { OrderBookEngine, type AppliedTick, type PreparedTick } from '../../../src/dex/engine/index.js';
import type { DexTx } from '../../../src/dex/engine/index.js';

const ZERO256 = new Uint8Array(256);

function otxOf(n: number): OrderedTransaction {
  return {
    transaction: {
      txId: `t${n}`,
      payload: new Uint8Array(0),
      signature: new Uint8Array(0),
      publicKey: new Uint8Array(0),
      nonce: 0n,
      timestamp: 0n,
    },
    sequenceNumber: n,
    txHash: new Uint8Array(32),
    ingestionTimestamp: 0,
  };
}

export class TickMaker {
  readonly engine = new OrderBookEngine();
  tickNumber = 0;
  /** The ticks' clock (ms); tests move it to expire orders. */
  nowMs = 1_700_000_000_000;
  private seq = 0;

  /** Apply `txs` as the next tick; `verified[i]` false = a bad signature (default: all verified). */
  apply(txs: DexTx[], verified: boolean[] = []): AppliedTick {
    this.tickNumber++;
    this.nowMs += 10;
    const tick: Tick = {
      tickNumber: this.tickNumber,
      vdfProof: { input: ZERO256, output: ZERO256, proof: ZERO256, iterations: 1 },
      transactions: txs.map(() => otxOf(this.seq++)),
      batchHash: new Uint8Array(32),
      timestamp: this.nowMs * 1000,
      previousOutput: ZERO256,
    };
    const p: PreparedTick = {
      tick,
      items: txs.map((tx, index) => ({ index, otx: tick.transactions[index]!, tx, verified: verified[index] ?? true })),
      toVerify: [],
      verifyAt: [],
    };
    return this.engine.apply(p);
  }
}
