/**
 * The readers' pace, in process (issue 25 point 6, docs/api.md "Stream backpressure policy"):
 * the node's gRPC face over the test double sequencer, closing loaded ticks (40 transactions,
 * ~10 KB encoded) one per event-loop turn, as ordering does under load. 50 StreamTicks readers
 * that take everything as fast as it comes (no data listener; 25 live, 25 replaying from tick
 * 1; each on its own connection, in two child processes) must cost this thread little per tick:
 * while ordering has work they share the pace's floor. Before the pace each reader cost a
 * write per tick (~50 writes of ~10 KB per tick): 3.3x the tick's own cost.
 *
 * The CPU measured is this process's (the face and the double run here; the readers do not).
 */
import { expect } from 'chai';
import { startChild, type StartedChild } from '../../../bench/support/processes.js';
import type { StreamClientsJob, StreamClientsResult } from '../../../bench/support/stream-clients.js';
import type { Transaction } from '../../../src/core/index.js';
import type { GrpcFace } from '../../../src/sequencer/api/grpc/server.js';
import { readerPace } from '../../../src/wire/index.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { grpcFace } from '../../support/front-ends.js';

const TICKS = 600;
const PER_TICK = 40;

describe("readers share the pace's floor while ordering has work (in process, readers in child processes)", function () {
  this.timeout(300_000);
  let fake: FakeSequencer;
  let face: GrpcFace;
  let counter = 0;

  before(async () => {
    fake = new FakeSequencer({ queueCapacity: 10_000_000 });
    face = await grpcFace(fake);
    for (let i = 0; i < 300; i++) await loadedTick(); // a history to replay
  });
  after(async () => face?.close());

  const loadedTick = async (): Promise<void> => {
    const txs: Transaction[] = Array.from({ length: PER_TICK }, () => {
      counter++;
      return {
        txId: `pace-${counter}`,
        payload: new Uint8Array(100).fill(counter & 0xff),
        signature: new Uint8Array(64).fill(1),
        publicKey: new Uint8Array(32).fill(2),
        nonce: BigInt(counter),
        timestamp: BigInt(counter),
      };
    });
    await fake.submitBatch(txs);
    fake.closeTick();
    await new Promise((r) => setImmediate(r));
  };

  /** This process's CPU per tick (us) over TICKS loaded ticks. */
  const perTick = async (): Promise<number> => {
    for (let i = 0; i < 100; i++) await loadedTick(); // warm-up
    const t0 = process.cpuUsage();
    for (let i = 0; i < TICKS; i++) await loadedTick();
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / TICKS;
  };

  it("50 fast readers add less than 1.5x the ticks' own cost per tick, and still get ticks", async () => {
    const none = await perTick();
    const readers: Array<StartedChild<StreamClientsResult>> = [0, 1].map((startTick) =>
      startChild<StreamClientsJob, StreamClientsResult>('stream-clients.js', {
        address: face.address,
        count: 25,
        startTick,
        mode: 'fast',
      }),
    );
    await Promise.all(readers.map((r) => r.ready));
    const passed0 = readerPace.passedBytes;
    const withReaders = await perTick();
    const passed = readerPace.passedBytes - passed0;
    for (const r of readers) r.stop();
    const ended = await Promise.all(readers.map((r) => r.result));
    const noneAfter = await perTick();
    const base = (none + noneAfter) / 2;
    const detail = `none ${none.toFixed(1)} / ${noneAfter.toFixed(1)} us per tick, with 50 fast readers ${withReaders.toFixed(1)} us; readers were passed ${Math.round(passed / 1024)} KiB`;
    console.log(`      ${detail}`);
    expect(
      ended.reduce((a, e) => a + e.opened, 0),
      detail,
    ).to.equal(50);
    // Before the pace: +3.3x the tick's own cost (load 20). With it: +0.6-0.7x at load 20,
    // +1.2x at load 50 (the floor is bytes per wall second, and a loaded box stretches a tick).
    expect(withReaders - base, detail).to.be.below(1.5 * base);
    expect(passed, `readers still progress: ${detail}`).to.be.above(0);
  });
});
