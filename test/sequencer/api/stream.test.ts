/**
 * StreamTicks through a real grpc-js client: replay from start_tick then live without
 * gaps or duplicates, start 0 = latest, shutdown ends streams after the last tick, and
 * the slow-client policy (a stream that falls out of the shared window is ended with
 * RESOURCE_EXHAUSTED while the sequencer keeps ticking).
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { GrpcFace } from '../../../src/sequencer/api/grpc/server.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { grpcFace } from '../../support/front-ends.js';
import { DEFAULT_READER_PACE, ReaderPace } from '../../../src/wire/index.js';
import { SequencerClient, type WireTick } from '../../support/grpc-client.js';

function collect(stream: grpc.ClientReadableStream<WireTick>) {
  const ticks: number[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let ended: { code: number; details: string } | undefined;
  const endWaiters: Array<() => void> = [];
  stream.on('data', (t: WireTick) => {
    ticks.push(Number(t.tick_number));
    for (const w of [...waiters]) if (ticks.length >= w.n) w.resolve();
  });
  const finish = (code: number, details: string) => {
    ended ??= { code, details };
    for (const w of endWaiters) w();
  };
  stream.on('error', (e: grpc.ServiceError) => finish(e.code, e.details));
  stream.on('end', () => setImmediate(() => finish(0, 'end')));
  return {
    ticks,
    count: (n: number) =>
      new Promise<void>((resolve) => (ticks.length >= n ? resolve() : waiters.push({ n, resolve }))),
    end: () =>
      new Promise<{ code: number; details: string }>((resolve) =>
        ended ? resolve(ended) : endWaiters.push(() => resolve(ended!)),
      ),
  };
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('gRPC StreamTicks', () => {
  let fake: FakeSequencer;
  let face: GrpcFace;
  let client: SequencerClient;
  beforeEach(async () => {
    fake = new FakeSequencer({ queueCapacity: 10_000 });
  });
  afterEach(async () => {
    client?.close();
    await face?.close();
  });

  it('replays stored ticks from start_tick, then follows live ones with no gap or duplicate', async () => {
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
    for (let i = 0; i < 300; i++) fake.closeTick(); // more than one replay chunk
    const s = collect(client.stream(2));
    // ticks produced while the replay is still running
    await s.count(10);
    for (let i = 0; i < 20; i++) fake.closeTick();
    await s.count(319);
    for (let i = 0; i < 5; i++) fake.closeTick();
    await s.count(324);
    expect(s.ticks).to.deep.equal(range(2, 325));
    expect(face.streamClients()).to.equal(1);
  });

  it('start_tick 0 starts at the latest tick; a future start_tick waits for it', async () => {
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
    for (let i = 0; i < 5; i++) fake.closeTick();
    const latest = collect(client.stream(0));
    const future = collect(client.stream(8));
    await latest.count(1);
    for (let i = 0; i < 4; i++) fake.closeTick();
    await latest.count(5);
    await future.count(2);
    expect(latest.ticks).to.deep.equal([5, 6, 7, 8, 9]);
    expect(future.ticks).to.deep.equal([8, 9]);
  });

  it('refuses start_tick beyond 2^53-1 with INVALID_ARGUMENT', async () => {
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
    const s = collect(client.stream('18446744073709551615'));
    const end = await s.end();
    expect(end.code).to.equal(grpc.status.INVALID_ARGUMENT);
    expect(end.details).to.match(/start_tick/);
  });

  it('refuses streams beyond the limit with RESOURCE_EXHAUSTED', async () => {
    face = await grpcFace(fake, { maxStreams: 2 });
    client = new SequencerClient(face.address);
    fake.closeTick();
    const a = collect(client.stream(1));
    const b = collect(client.stream(1));
    await a.count(1);
    await b.count(1);
    const c = collect(client.stream(1));
    const end = await c.end();
    expect(end.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    expect(end.details).to.match(/too many tick streams/);
    expect(c.ticks).to.deep.equal([]);
  });

  it('unsubscribes from the sequencer when the last stream is cancelled', async () => {
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
    fake.closeTick();
    const stream = client.stream(1);
    const s = collect(stream);
    await s.count(1);
    expect(fake.listenerCount).to.equal(1);
    stream.cancel();
    for (let i = 0; i < 50 && face.streamClients() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    fake.closeTick(); // wakes nothing
    expect(face.streamClients()).to.equal(0);
    expect(fake.listenerCount).to.equal(0);
  });

  it('on close, sends every tick so far and ends the stream with OK', async () => {
    face = await grpcFace(fake);
    client = new SequencerClient(face.address);
    for (let i = 0; i < 3; i++) fake.closeTick();
    const s = collect(client.stream(1));
    await s.count(3);
    fake.closeTick();
    await face.close();
    const end = await s.end();
    expect(end.code).to.equal(0);
    expect(s.ticks).to.deep.equal([1, 2, 3, 4]);
  });

  it('ends a client that stops reading with RESOURCE_EXHAUSTED once it falls out of the window, without stalling ticks', async () => {
    // Readers unpaced here: this is about one stalled stream, not the readers' budget (readers-pace.test.ts).
    const unpaced = new ReaderPace({ ...DEFAULT_READER_PACE, minBytesPerS: DEFAULT_READER_PACE.maxBytesPerS });
    face = await grpcFace(fake, {
      feed: { windowTicks: 40, windowBytes: 64 * 1024 * 1024 },
      streamQueue: { messages: 16, bytes: 1024 * 1024 },
      readerPace: unpaced,
    });
    client = new SequencerClient(face.address);
    const fast = collect(client.stream(1));
    // its own connection, so the paused stream cannot hold the fast one's HTTP/2 window
    // and grpc-js's default 64 KiB receive window, so HTTP/2 flow control stops the server quickly
    const slowClient = new SequencerClient(face.address, {
      'grpc.use_local_subchannel_pool': 1,
      'grpc-node.flow_control_window': 65_535,
    });
    const slowStream = slowClient.stream(1);
    const slow = collect(slowStream);
    fake.closeTick();
    await slow.count(1);
    await fast.count(1);
    slowStream.pause();
    // Ticks of ~60 KB each: HTTP/2 flow control and grpc-js's 16-message buffer fill quickly.
    for (let i = 0; i < 120; i++) {
      await fake.submit({
        txId: `big-${i}`,
        payload: new Uint8Array(60_000),
        signature: new Uint8Array(0),
        publicKey: new Uint8Array(0),
        nonce: 0n,
        timestamp: 0n,
      });
      fake.closeTick(); // never waits for a stream
      await new Promise((r) => setTimeout(r, 3));
    }
    await Promise.race([fast.count(121), fast.end().then((e) => expect.fail(`fast stream ended: ${e.details}`))]);
    expect(fast.ticks).to.deep.equal(range(1, 121));
    slowStream.resume();
    const end = await slow.end();
    expect(end.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    expect(end.details).to.match(/fell too far behind.*start_tick=\d+/);
    const resumeAt = Number(/start_tick=(\d+)/.exec(end.details)![1]);
    // What it did get is gap-free, and the resume point is right after it.
    expect(slow.ticks).to.deep.equal(range(1, slow.ticks.length));
    expect(resumeAt).to.equal(slow.ticks.length + 1);
    expect(slow.ticks.length).to.be.lessThan(121);
    expect(fast.ticks.length).to.equal(121);
    slowClient.close();
  });
});
