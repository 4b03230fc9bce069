/**
 * The batcher and the clock loop driven in-process with the BigInt reference engine:
 * ticks carry the batch that was ready when they started, the batch hash is the Merkle
 * root of the full transaction hashes, every tick verifies and chains to the previous
 * output, the busy and heartbeat rules of design.md and docs/sequencer.md hold
 * (an isolated transaction costs at most a handful of ticks), a full tick ring lengthens
 * the tick instead of pausing the chain, and a stop ticks out what is queued.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { BatchFormer } from '../../src/clock/batch-former.js';
import { headerOfTick, ingestionDigest } from '../../src/vdf/binding.js';
import { ClockLoop, type ClockParams } from '../../src/clock/clock-loop.js';
import {
  BATCH_SLOT_BYTES,
  ClockControl,
  PROOFS_FAR_BEHIND,
  PROOFS_LAGGING,
  PROOFS_ON_TIME,
  TICK_SLOT_BYTES,
  TX_SLOT_BYTES,
  readTickSlot,
  writeTxSlot,
  type ClockTick,
  type ProofsLevel,
} from '../../src/clock/protocol.js';
import { RingQueue } from '../../src/clock/ring.js';
import { merkleRoot } from '../../src/crypto/merkle.js';
import { GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T, loadWasmVdfEngine, referenceVdfEngine } from '../../src/vdf/index.js';
import type { VdfEngine, VdfEvaluator } from '../../src/vdf/interface.js';

const reference = referenceVdfEngine();
const txHash = (i: number): Uint8Array => new Uint8Array(createHash('sha256').update(`tx${i}`).digest());

function setup(
  over: Partial<ClockParams> = {},
  engine: VdfEngine = reference,
  tickSlots = 16,
  sendCheckpoints?: (tickNumber: number, checkpoints: Uint8Array) => void,
) {
  const txRing = RingQueue.create(64, TX_SLOT_BYTES);
  const batchRing = RingQueue.create(1, BATCH_SLOT_BYTES);
  const tickRing = RingQueue.create(tickSlots, TICK_SLOT_BYTES);
  const control = new ClockControl();
  const params: ClockParams = {
    startTick: 1,
    previousOutput: GENESIS_OUTPUT,
    vdfIterations: 20,
    idleTickMs: 10,
    lastTimestamp: 0,
    maxTxPerTick: 1000,
    trivialProofMaxT: TRIVIAL_PROOF_MAX_T,
    bridgeGapMs: 0,
    bridgeSpan: 0,
    laggingGapMs: 0,
    ...over,
  };
  const loop = new ClockLoop(engine, batchRing, tickRing, control, params, sendCheckpoints, txRing);
  const former = new BatchFormer(txRing, batchRing, params.maxTxPerTick);
  /** Queue transactions and let the batcher form the next batch (as its thread would). */
  const push = (from: number, count: number): void => {
    for (let k = 0; k < count; k++) writeTxSlot(txRing, k, from + k, ingestedAt(from + k), txHash(from + k));
    txRing.publish(count);
    former.formOnce();
  };
  /** One clock step, the batcher refilling the batch slot after it (as its thread would). */
  const step = (): 'tick' | 'stopped' => {
    const r = loop.step();
    former.formOnce();
    return r;
  };
  const take = (): ClockTick => {
    const t = readTickSlot(tickRing, 0);
    tickRing.release(1);
    return t;
  };
  return { loop, step, former, txRing, batchRing, tickRing, control, push, take };
}

/** The ingestion timestamp the tests give transaction `seq` (microseconds). */
const ingestedAt = (seq: number): number => 1_000_000 + seq;

/** header_n recomputed from what the tick serves (src/vdf/binding.ts). */
function headerOf(t: ClockTick): Uint8Array {
  const transactions = Array.from({ length: t.txCount }, (_, i) => ({
    sequenceNumber: t.firstSequence + i,
    ingestionTimestamp: ingestedAt(t.firstSequence + i),
  }));
  return headerOfTick({ tickNumber: t.tickNumber, timestamp: t.timestamp, batchHash: t.batchHash, transactions });
}

function verifies(t: ClockTick, previousOutput: Uint8Array): boolean {
  const proof = t.proofPending ? reference.prove(t.input, t.output, t.iterations) : t.proof;
  return reference.verify({
    tickNumber: t.tickNumber,
    previousOutput,
    header: headerOf(t),
    claim: { input: t.input, output: t.output, proof, iterations: t.iterations },
  });
}

describe('clock/clock-loop', () => {
  it('a busy tick carries the waiting transactions, closes at vdfIterations and verifies', () => {
    const c = setup();
    c.push(1, 3);
    expect(c.step()).to.equal('tick');
    const t = c.take();
    expect(t.tickNumber).to.equal(1);
    expect(t.txCount).to.equal(3);
    expect(t.firstSequence).to.equal(1);
    expect(t.iterations).to.equal(20);
    expect(t.proofPending).to.equal(false);
    expect(Buffer.from(t.batchHash).equals(Buffer.from(merkleRoot([txHash(1), txHash(2), txHash(3)])))).to.equal(true);
    // Binding v2: the input derives from the header, which binds the served fields.
    expect(Buffer.from(t.ingestionDigest).equals(Buffer.from(ingestionDigest([1, 2, 3].map(ingestedAt))))).to.equal(
      true,
    );
    expect(Buffer.from(t.input).equals(Buffer.from(reference.hashToGroup(1, GENESIS_OUTPUT, headerOf(t))))).to.equal(
      true,
    );
    expect(t.timestamp).to.be.at.least(ingestedAt(3));
    for (const tampered of [
      { ...t, timestamp: t.timestamp + 1 },
      { ...t, firstSequence: 2 },
      { ...t, txCount: 2 },
    ]) {
      expect(verifies(tampered, GENESIS_OUTPUT), 'a tampered served field fails').to.equal(false);
    }
    expect(verifies(t, GENESIS_OUTPUT)).to.equal(true);
    expect(c.txRing.size()).to.equal(0);
  });

  it('chains ticks: each input derives from the previous output and every tick verifies', () => {
    const c = setup({ startTick: 41, previousOutput: reference.evaluate(GENESIS_OUTPUT, 3) });
    let prev = reference.evaluate(GENESIS_OUTPUT, 3);
    let seq = 1;
    for (let i = 0; i < 6; i++) {
      c.push(seq, i + 1);
      seq += i + 1;
      c.step();
      const t = c.take();
      expect(t.tickNumber).to.equal(41 + i);
      expect(t.txCount).to.equal(i + 1);
      expect(verifies(t, prev), `tick ${t.tickNumber}`).to.equal(true);
      // Tampering with the previous output breaks verification.
      expect(verifies(t, t.output)).to.equal(false);
      prev = t.output;
    }
  });

  it('an empty tick waits for a transaction or the idle timeout (heartbeat)', () => {
    const c = setup({ idleTickMs: 15 });
    c.step();
    const t = c.take();
    expect(t.txCount).to.equal(0);
    expect(t.iterations).to.be.greaterThan(20);
    expect(t.proofPending).to.equal(t.iterations > TRIVIAL_PROOF_MAX_T);
    expect(Buffer.from(t.batchHash).equals(Buffer.from(merkleRoot([])))).to.equal(true);
    expect(verifies(t, GENESIS_OUTPUT)).to.equal(true);
  });

  it('after a tick with transactions the next empty tick is a heartbeat: no trivial empty ticks follow traffic', () => {
    const c = setup({ idleTickMs: 15 });
    c.push(1, 1);
    c.step();
    c.push(2, 1);
    c.step(); // steady traffic: two busy ticks in a row
    expect([c.take().txCount, c.take().txCount]).to.deep.equal([1, 1]);
    for (let i = 0; i < 3; i++) {
      c.step();
      const t = c.take();
      expect(t.txCount).to.equal(0);
      expect(t.iterations, `empty tick ${i}`).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
      expect(t.proofPending).to.equal(true);
    }
  });

  it('dense traffic only: after many busy ticks close together, empty ticks bridge trivially; a few do not start it', () => {
    const busy = (c: ReturnType<typeof setup>, count: number, from: number): void => {
      for (let i = 0; i < count; i++) {
        c.push(from + i, 1);
        c.step();
        expect(c.take().txCount).to.equal(1);
      }
    };
    // Five busy ticks in a row (microseconds apart): the average gap is still far above 2 ms.
    const few = setup({ idleTickMs: 15, bridgeGapMs: 2, bridgeSpan: 1_000_000 });
    busy(few, 5, 1);
    few.step();
    expect(few.take().iterations, 'a heartbeat after a short burst').to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
    // Forty: the average gap fell below 2 ms, so the gaps after it are bridged by trivial ticks.
    const many = setup({ idleTickMs: 15, bridgeGapMs: 2, bridgeSpan: 1_000_000 });
    busy(many, 40, 1);
    for (let i = 0; i < 3; i++) {
      many.step();
      const t = many.take();
      expect(t.txCount).to.equal(0);
      expect(t.iterations, `bridge tick ${i}`).to.equal(TRIVIAL_PROOF_MAX_T);
      expect(t.proofPending).to.equal(false);
    }
    // The bridge lasts bridgeSpan average gaps after the last busy tick, then heartbeats.
    const short = setup({ idleTickMs: 15, bridgeGapMs: 2, bridgeSpan: 0 });
    busy(short, 40, 1);
    short.step();
    expect(short.take().iterations).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
  });

  it('while the main thread reports proofs far behind, empty ticks close trivially (no new proof work); then heartbeats again', () => {
    const c = setup({ idleTickMs: 15 });
    c.control.setProofsBehind(PROOFS_FAR_BEHIND);
    for (let i = 0; i < 3; i++) {
      c.step();
      const t = c.take();
      expect(t.iterations, `tick ${i} while far behind`).to.equal(TRIVIAL_PROOF_MAX_T);
      expect(t.proofPending).to.equal(false);
    }
    c.control.setProofsBehind(PROOFS_ON_TIME);
    c.step();
    expect(c.take().iterations).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
  });

  it('while proofs lag, a batch cuts an empty tick only once it ran laggingGapMs; no trivial bridge ticks', () => {
    const run = (level: ProofsLevel): { ms: number; cut: ClockTick; busy: ClockTick } => {
      const a = arrivingAfter(300);
      const c = setup({ idleTickMs: 2_000, laggingGapMs: 60 }, a.engine);
      c.control.setProofsBehind(level);
      a.arm(() => c.push(1, 1));
      const t0 = performance.now();
      c.step();
      const ms = performance.now() - t0;
      const cut = c.take();
      c.step();
      return { ms, cut, busy: c.take() };
    };
    const onTime = run(PROOFS_ON_TIME);
    const lagging = run(PROOFS_LAGGING);
    for (const r of [onTime, lagging]) {
      expect(r.cut.txCount).to.equal(0);
      expect(r.cut.proofPending, 'a heartbeat, not a trivial bridge tick').to.equal(true);
      expect(r.busy.txCount).to.equal(1);
    }
    expect(onTime.cut.iterations, 'on time: cut as soon as the batch waits').to.be.within(300, 400);
    expect(lagging.ms, 'lagging: the empty tick ran its gap first').to.be.at.least(59);
    expect(lagging.ms).to.be.below(2_000); // and not its whole heartbeat
    expect(lagging.cut.iterations).to.be.greaterThan(onTime.cut.iterations);
  });

  it('an isolated transaction mid-heartbeat closes the heartbeat early and costs at most 2 ticks', () => {
    const a = arrivingAfter(300);
    const c = setup({ idleTickMs: 200 }, a.engine);
    a.arm(() => c.push(1, 1));
    const ticks: ClockTick[] = [];
    for (let i = 0; i < 3; i++) {
      c.step();
      ticks.push(c.take());
    }
    const [truncated, busy, after] = ticks;
    expect(truncated!.txCount).to.equal(0);
    expect(truncated!.iterations).to.be.within(300, 400); // closed as soon as the batch was waiting
    expect(truncated!.proofPending).to.equal(true);
    expect(busy!.txCount).to.equal(1);
    expect(busy!.iterations).to.equal(20);
    // Then a heartbeat again: the transaction cost the truncated heartbeat and its own tick.
    expect(after!.txCount).to.equal(0);
    expect(after!.iterations).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
    for (let i = 0; i < ticks.length - 1; i++)
      expect(verifies(ticks[i]!, i === 0 ? GENESIS_OUTPUT : ticks[i - 1]!.output)).to.equal(true);
  });

  it("exports a heartbeat's checkpoints into a buffer it prepared while waiting: the same checkpoints, the same proof", () => {
    const wasm = loadWasmVdfEngine();
    const sent: Array<{ tickNumber: number; checkpoints: Uint8Array }> = [];
    const c = setup({ idleTickMs: 30 }, wasm, 16, (tickNumber, checkpoints) => sent.push({ tickNumber, checkpoints }));
    const ticks = new Map<number, ClockTick>();
    for (let i = 0; i < 6; i++) {
      expect(c.step()).to.equal('tick');
      const t = c.take();
      ticks.set(t.tickNumber, t);
    }
    // Every heartbeat whose proof is the pool's (on a starved machine one may close trivially).
    const pending = [...ticks.values()].filter((t) => t.proofPending).map((t) => t.tickNumber);
    expect(sent.map((x) => x.tickNumber)).to.deep.equal(pending);
    expect(pending.length).to.be.at.least(2);
    // A heartbeat's length in squarings follows the machine's speed, so whether an export fits
    // the spare (sized 1.25 x the largest before it) is worked out from the sizes seen; on a
    // starved machine a heartbeat may also close before its spare is ready (a new array then).
    let wanted = 0;
    let prepared = 0;
    for (const { tickNumber, checkpoints } of sent) {
      const t = ticks.get(tickNumber)!;
      expect(checkpoints.byteOffset).to.equal(0);
      const fits = wanted > 0 && checkpoints.byteLength <= wanted;
      const size = checkpoints.buffer.byteLength;
      if (size !== checkpoints.byteLength) {
        expect(fits, `tick ${tickNumber}: a prepared buffer only when it fits`).to.equal(true);
        expect(size, `tick ${tickNumber}'s prepared buffer`).to.equal(wanted);
        prepared++;
      }
      wanted = Math.max(wanted, Math.ceil(checkpoints.byteLength * 1.25));
      const proof = wasm.proveFromCheckpoints(t.input, t.output, t.iterations, checkpoints);
      expect(Buffer.from(proof).equals(Buffer.from(wasm.prove(t.input, t.output, t.iterations)))).to.equal(true);
    }
    expect(prepared, 'exports into a prepared buffer').to.be.at.least(1);
  });

  it('splits a long queue into ticks of at most maxTxPerTick, in order', () => {
    const c = setup({ maxTxPerTick: 4 });
    c.push(1, 10);
    const got: Array<[number, number]> = [];
    for (let i = 0; i < 3; i++) {
      c.step();
      const t = c.take();
      got.push([t.firstSequence, t.txCount]);
    }
    expect(got).to.deep.equal([
      [1, 4],
      [5, 4],
      [9, 2],
    ]);
  });

  it('never closes a tick into a full ring: the chain keeps squaring and the tick grows', () => {
    // An engine whose evaluator frees the tick ring after 200 squarings (a slow consumer).
    let ring: RingQueue | undefined;
    const slow: VdfEngine = {
      hashToGroup: (n, p, b) => reference.hashToGroup(n, p, b),
      evaluate: (x, t) => reference.evaluate(x, t),
      prove: (x, y, t) => reference.prove(x, y, t),
      verify: (tick) => reference.verify(tick),
      verifyBatch: (ticks) => reference.verifyBatch(ticks),
      evaluator(): VdfEvaluator {
        const inner = reference.evaluator();
        let total = 0;
        return {
          start: (x) => inner.start(x),
          square: (k) => {
            inner.square(k);
            total += k;
            if (total >= 200 && ring && ring.free() === 0) ring.release(1);
          },
          get iterations() {
            return inner.iterations;
          },
          output: () => inner.output(),
          prove: () => inner.prove(),
        };
      },
    };
    const c = setup({}, slow, 1);
    ring = c.tickRing;
    c.push(1, 1);
    c.step(); // fills the only slot
    c.push(2, 1);
    const first = readTickSlot(c.tickRing, 0);
    expect(first.iterations).to.equal(20);
    c.step(); // must wait for the slot
    const second = c.take();
    expect(second.tickNumber).to.equal(2);
    expect(second.iterations).to.be.at.least(200 - 20);
    expect(second.iterations).to.be.greaterThan(20);
    expect(verifies(second, first.output)).to.equal(true);
  });

  it('on stop, ticks out what is queued and then stops without an empty tick', () => {
    const c = setup();
    c.push(1, 2);
    c.control.requestStop();
    expect(c.step()).to.equal('tick');
    expect(c.take().txCount).to.equal(2);
    expect(c.step()).to.equal('stopped');
    expect(c.tickRing.size()).to.equal(0);
  });

  it('timestamps never go back, even behind a later stored timestamp', () => {
    const future = Math.floor(Date.now() * 1000) + 60_000_000;
    const c = setup({ lastTimestamp: future });
    c.push(1, 1);
    c.step();
    expect(c.take().timestamp).to.equal(future);
    c.push(2, 1);
    c.step();
    expect(c.take().timestamp).to.be.at.least(future);
  });
});

/** The reference engine, calling the armed function once the first segment reaches `squarings` (a transaction arriving mid-tick). */
function arrivingAfter(squarings: number): { engine: VdfEngine; arm: (f: () => void) => void } {
  let arrive: (() => void) | undefined;
  const engine: VdfEngine = {
    ...reference,
    hashToGroup: (n, p, b) => reference.hashToGroup(n, p, b),
    evaluator(): VdfEvaluator {
      const inner = reference.evaluator();
      return {
        start: (x) => inner.start(x),
        square: (k) => {
          inner.square(k);
          if (inner.iterations >= squarings && arrive) {
            arrive();
            arrive = undefined;
          }
        },
        get iterations() {
          return inner.iterations;
        },
        output: () => inner.output(),
        prove: () => inner.prove(),
      };
    },
  };
  return { engine, arm: (f) => (arrive = f) };
}
