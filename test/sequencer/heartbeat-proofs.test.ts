/**
 * Heartbeat proofs: long empty segments get their Wesolowski proof from the pool, proven
 * from the checkpoints the clock worker posts (not by re-running the segment), and every
 * stored heartbeat verifies and chains. Also the clock loop's side of it: a long segment
 * hands out checkpoints that prove exactly that segment, before the tick is published.
 */
import { expect } from 'chai';
import { vdfInputOfTick } from '../../src/vdf/binding.js';
import { ClockLoop, type ClockParams } from '../../src/clock/clock-loop.js';
import { BATCH_SLOT_BYTES, ClockControl, TICK_SLOT_BYTES, readTickSlot } from '../../src/clock/protocol.js';
import { RingQueue } from '../../src/clock/ring.js';
import type { Tick } from '../../src/core/types.js';
import { GENESIS_OUTPUT, TRIVIAL_PROOF_MAX_T, referenceVdfEngine } from '../../src/vdf/index.js';
import { WasmVdfEngine } from '../../src/vdf/wasm-engine.js';
import { vdfWasmModule } from '../../src/vdf/node.js';
import { startHarness, type Harness } from './harness.js';

describe('heartbeat proofs from clock checkpoints', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the clock loop posts a long segment checkpoints that prove it, before publishing the tick', () => {
    const engine = new WasmVdfEngine(vdfWasmModule());
    const batchRing = RingQueue.create(1, BATCH_SLOT_BYTES);
    const tickRing = RingQueue.create(8, TICK_SLOT_BYTES);
    const params: ClockParams = {
      startTick: 1,
      previousOutput: GENESIS_OUTPUT,
      vdfIterations: 20,
      idleTickMs: 5,
      lastTimestamp: 0,
      maxTxPerTick: 100,
      trivialProofMaxT: TRIVIAL_PROOF_MAX_T,
      bridgeGapMs: 0,
      bridgeSpan: 0,
      laggingGapMs: 0,
    };
    const posted: { tickNumber: number; checkpoints: Uint8Array; publishedBefore: number }[] = [];
    const loop = new ClockLoop(engine, batchRing, tickRing, new ClockControl(), params, (tickNumber, checkpoints) =>
      posted.push({ tickNumber, checkpoints, publishedBefore: tickRing.size() }),
    );
    loop.step();
    const tick = readTickSlot(tickRing, 0);
    expect(tick.iterations).to.be.greaterThan(TRIVIAL_PROOF_MAX_T);
    expect(tick.proofPending).to.equal(true);
    expect(tick.hasCheckpoints).to.equal(true);
    expect(posted).to.have.length(1);
    expect(posted[0]!.tickNumber).to.equal(1);
    expect(posted[0]!.publishedBefore).to.equal(0); // posted before the tick reached the ring
    const proof = engine.proveFromCheckpoints(tick.input, tick.output, tick.iterations, posted[0]!.checkpoints);
    expect(
      Buffer.from(proof).equals(Buffer.from(referenceVdfEngine().prove(tick.input, tick.output, tick.iterations))),
    ).to.equal(true);
  });

  it('stored heartbeats carry pool proofs that verify and chain', async () => {
    h = await startHarness({ idleTickMs: 15 });
    const reference = referenceVdfEngine();
    while (h.seq.status().currentTick < 6) await new Promise((r) => setTimeout(r, 10));
    const ticks: Tick[] = [];
    for await (const t of h.seq.readTicks(1, h.seq.status().currentTick)) ticks.push(t);
    const long = ticks.filter((t) => t.vdfProof.iterations > TRIVIAL_PROOF_MAX_T);
    expect(long.length, 'heartbeats with non-trivial proofs').to.be.at.least(3);
    let previous = GENESIS_OUTPUT;
    for (const t of ticks) {
      const ok = reference.verify({ ...vdfInputOfTick(t), previousOutput: previous });
      expect(ok, `tick ${t.tickNumber} (T ${t.vdfProof.iterations}) verifies`).to.equal(true);
      previous = t.vdfProof.output;
    }
  });
});
