/**
 * Hostile StreamTicks clients (issue 11 points 3 and 4, docs/api.md "Stream backpressure
 * policy"): streams cancelled at every moment of their life, clients that vanish, clients that
 * never read, and the exact reproduction with grpc-js. Every open slot and every queued
 * byte must come back at once after a cancel, a stalled stream must cost nothing per tick, and
 * other clients must keep getting their ticks and answers.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { connect as netConnect } from 'node:net';
import type { GrpcFace } from '../../../src/sequencer/api/grpc/server.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { grpcFace } from '../../support/front-ends.js';
import { SequencerClient, wireTx } from '../../support/grpc-client.js';
import type { ChurnJob, ChurnReport } from './churn-client.js';
import type { PausedJob } from './paused-clients.js';
import {
  ANSWER_BOUND_MS,
  describeProcess,
  http,
  rawStream,
  splitAddress,
  startHostileNode,
  stillServes,
  within,
  type HostileNode,
} from '../../hostile/support.js';

/** The file's node, for describeProcess when it stops answering. */
let current: HostileNode | undefined;

const STREAM_TICKS = '/svc.sequencer.v1.SequencerService/StreamTicks';

/** One gRPC message frame: flag 0, big-endian length, body. */
function frame(body: Buffer): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.writeUInt32BE(body.length, 1);
  body.copy(out, 5);
  return out;
}

/** StreamTicksRequest { start_tick } */
function startBody(n: number): Buffer {
  return n === 0 ? Buffer.alloc(0) : Buffer.from([0x08, ...varint(n)]);
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function openRaw(session: ClientHttp2Session): ClientHttp2Stream {
  return session.request(
    { ':method': 'POST', ':path': STREAM_TICKS, 'content-type': 'application/grpc', te: 'trailers' },
    { endStream: false },
  );
}

/** `work`, or after 15 s a failure that describes the node's threads (a node that stopped answering). */
async function answered<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await within(what, 15_000, work);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${current ? await describeProcess(current) : ''}`);
  }
}

/** A metric's value from GET /metrics. */
async function metric(rest: string, name: string): Promise<number> {
  const text = (await answered('GET /metrics', http(rest, 'GET', '/metrics'))).text;
  return Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
}

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('hostile: StreamTicks clients (real node)', function () {
  this.timeout(120_000);
  let node: HostileNode;
  let rest: string;
  before(async () => {
    node = current = await startHostileNode();
    rest = node.addresses.rest!;
    await until('first ticks', 10_000, async () => (await metric(rest, 'svc_current_tick')) >= 3);
  });
  after(async () => node?.stop());
  afterEach(async () => {
    await until('svc_stream_clients back to 0', 5_000, async () => (await metric(rest, 'svc_stream_clients')) === 0);
  });

  it('streams reset at every moment of their life release their slot at once (raw HTTP/2 RST_STREAM)', async () => {
    const session = connect(`http://${node.addresses.grpc}`);
    await new Promise<void>((resolve, reject) => session.once('connect', () => resolve()).once('error', reject));
    const moments: Array<[string, (s: ClientHttp2Stream) => Promise<void>]> = [
      ['before the request body', async () => undefined],
      ['with the request body still open', async (s) => void s.write(frame(startBody(0)))],
      ['right after the request', async (s) => void s.end(frame(startBody(0)))],
      [
        'right after the response headers',
        async (s) => {
          s.end(frame(startBody(0)));
          await new Promise((r) => s.once('response', r));
        },
      ],
      [
        'after the first tick',
        async (s) => {
          s.end(frame(startBody(0)));
          await new Promise((r) => s.once('data', r));
        },
      ],
      [
        'in the middle of a replay from tick 1',
        async (s) => {
          s.end(frame(startBody(1)));
          await new Promise((r) => s.once('data', r));
        },
      ],
    ];
    for (const [what, reach] of moments) {
      for (let i = 0; i < 30; i++) {
        const s = openRaw(session);
        s.on('error', () => undefined);
        await reach(s);
        s.close(constants.NGHTTP2_CANCEL);
      }
      await until(
        `svc_stream_clients back to 0 after resets ${what}`,
        2_000,
        async () => (await metric(rest, 'svc_stream_clients')) === 0,
      );
    }
    session.close();
    const fresh = await rawStream(node.addresses.grpc!, 'StreamTicks', Buffer.alloc(0));
    expect(fresh.code).to.equal(0);
    expect(fresh.messages).to.equal(1);
  });

  it('a client that vanishes (socket destroyed) with streams open releases all of them at once', async () => {
    const [host, port] = splitAddress(node.addresses.grpc!);
    const socket = netConnect(port, host);
    const session = connect(`http://${node.addresses.grpc}`, { createConnection: () => socket });
    session.on('error', () => undefined);
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    const streams = Array.from({ length: 10 }, () => {
      const s = openRaw(session);
      s.on('error', () => undefined);
      s.end(frame(startBody(1)));
      return s;
    });
    await Promise.all(streams.map((s) => new Promise((r) => s.once('data', r))));
    expect(await metric(rest, 'svc_stream_clients')).to.equal(10);
    socket.destroy(); // no GOAWAY, no RST_STREAM: the peer is just gone
    await until('svc_stream_clients back to 0', 2_000, async () => (await metric(rest, 'svc_stream_clients')) === 0);
    await stillServes(node);
  });

  it("the issue's reproduction (grpc-js, one channel, 1,000 pairs): nobody else is refused, and the client's exit releases everything", async () => {
    // The client runs in its own process: grpc-js (<= 1.14.7) leaves the HTTP/2 stream of a call
    // cancelled before it started open and reading (docs/api.md); those streams end when newer
    // streams on that connection displace them or when the connection closes.
    const child = fork(fileURLToPath(new URL('./leaky-client.js', import.meta.url)), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const report = new Promise<{ done: number; refused: number; cancelled: number; stalled: number }>((resolve) =>
        child.once('message', resolve),
      );
      child.send({ address: node.addresses.grpc!, pairs: 1000 });
      let maxOpen = 0;
      let finished = false;
      void report.then(() => (finished = true));
      while (!finished) {
        maxOpen = Math.max(maxOpen, await metric(rest, 'svc_stream_clients'));
        // Another client, on its own connection, is never refused whatever this one leaks.
        const o = await answered(
          'StreamTicks of another client',
          rawStream(node.addresses.grpc!, 'StreamTicks', Buffer.alloc(0)),
        );
        expect(o.code, o.details).to.equal(0);
        await new Promise((r) => setTimeout(r, 100));
      }
      const r = await report;
      expect(r.done).to.equal(1000);
      // A call grpc-js left without an answer is the client's (it was cancelled after 5 s):
      // shown, and bounded, while its cause is open (the closing note of 2026-11-28).
      if (r.stalled > 0)
        process.stderr.write(`      leaky client: ${r.stalled} of 1000 calls got neither a tick nor an error in 5 s\n`);
      expect(r.stalled, 'calls left without an answer').to.be.at.most(3);
      // What that client leaked counts against its own connection only.
      expect(maxOpen, 'open streams during the run').to.be.at.most(16 + 1);
      expect(await metric(rest, 'svc_stream_clients')).to.be.at.most(16);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    await until(
      'svc_stream_clients back to 0 once the client is gone',
      2_000,
      async () => (await metric(rest, 'svc_stream_clients')) === 0,
    );
    const fresh = await rawStream(node.addresses.grpc!, 'StreamTicks', Buffer.alloc(0));
    expect(fresh.code).to.equal(0);
    expect(fresh.messages).to.equal(1);
    await stillServes(node);
  });

  it('churn on one grpc-js channel, cancelled at once or on the first tick (issue 19 point 1): every call ends CANCELLED, the connection keeps getting new streams, all slots and memory come back', async () => {
    const CALLS = 400;
    const rssBefore = await metric(rest, 'process_resident_memory_bytes');
    const child = fork(fileURLToPath(new URL('./churn-client.js', import.meta.url)), [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const report = new Promise<ChurnReport>((resolve) => child.once('message', resolve));
      child.send({ address: node.addresses.grpc!, calls: CALLS, fresh: 16 } satisfies ChurnJob);
      let finished = false;
      void report.then(() => (finished = true));
      while (!finished) await stillServes(node); // other clients are answered within the bound meanwhile
      const r = await report;
      // What the client asked for: its cancel, never a refusal (grpc-js reports its own cancel locally).
      expect(r.codes).to.deep.equal({ CANCELLED: CALLS });
      // New streams on the same connection are accepted; each displaced a stream grpc-js leaked
      // (its cancel never reached the wire), so with the channel still open nothing is left.
      expect(r.fresh).to.deep.equal({ CANCELLED: 16 });
      await until(
        'svc_stream_clients back to 0 with the channel still open',
        2_000,
        async () => (await metric(rest, 'svc_stream_clients')) === 0,
      );
      child.send('close');
      await exited;
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    await stillServes(node);
    const rssAfter = await metric(rest, 'process_resident_memory_bytes');
    // A coarse guard; the slots above are the exact one. One round's growth is mostly V8's:
    // garbage waits in old space for a major GC and the young generation grows under the
    // churn (0.4-6 MiB on Node 20, 6-33 MiB on Node 24 in 2026-11-29's runs; over 40 rounds
    // on one node the heap came back at the major GC and RSS levelled off at ~+210 MiB).
    expect((rssAfter - rssBefore) / 2 ** 20, 'RSS growth, MiB').to.be.below(64);
  });

  it('50 paused consumers (half live, half replaying loaded ticks from tick 1; own connections, own process): bounded memory, ingestion and answers go on, all released on exit (issue 19 point 2)', async () => {
    const writer = new SequencerClient(node.addresses.grpc!);
    try {
      // History of loaded ticks: ~19 MB of transactions (100 x 8 KB per batch).
      for (let i = 0; i < 24; i++) await writer.submitBatch(Array.from({ length: 100 }, () => wireTx(8_000, 'h19')));
      const rssBefore = await metric(rest, 'process_resident_memory_bytes');
      const child = fork(fileURLToPath(new URL('./paused-clients.js', import.meta.url)), [], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const exited = new Promise((r) => child.once('exit', r));
      try {
        const opened = new Promise<{ opened: number }>((resolve) => child.once('message', resolve));
        child.send({ address: node.addresses.grpc!, count: 50 } satisfies PausedJob);
        expect((await opened).opened).to.equal(50);
        await until('50 streams open', 5_000, async () => (await metric(rest, 'svc_stream_clients')) === 50);
        // While they are open and paused: ingestion answers within the bound, every face answers.
        for (let i = 0; i < 10; i++) {
          const t0 = performance.now();
          await writer.submitBatch(Array.from({ length: 100 }, () => wireTx(1_000, 'h19')));
          expect(performance.now() - t0, 'SubmitBatch answered within (ms)').to.be.below(ANSWER_BOUND_MS);
          await stillServes(node);
        }
        // Each paused stream holds at most its send queue (1 MiB) plus one tick; the 25 replaying
        // ones used to read and queue up to 256 loaded ticks each (~19 MB here).
        const grown = ((await metric(rest, 'process_resident_memory_bytes')) - rssBefore) / 2 ** 20;
        expect(grown, 'RSS growth with 50 paused consumers, MiB').to.be.below(160);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      await until(
        'svc_stream_clients back to 0 once the client is gone',
        2_000,
        async () => (await metric(rest, 'svc_stream_clients')) === 0,
      );
      await stillServes(node);
    } finally {
      writer.close();
    }
  });

  it('pairs with the cancel after the call started (setImmediate, the workaround): every stream is released at once, none refused', async () => {
    const client = new SequencerClient(node.addresses.grpc!);
    const failures: string[] = [];
    const unexpected = (e: grpc.ServiceError) =>
      void (e.code !== grpc.status.CANCELLED && failures.push(`${e.code} ${e.details}`));
    try {
      for (let i = 0; i < 200; i++) {
        const a = client.stream(0);
        const b = client.stream(0);
        a.on('error', unexpected);
        setImmediate(() => a.cancel());
        await new Promise<void>((resolve) => {
          b.on('error', (e: grpc.ServiceError) => {
            unexpected(e);
            resolve();
          });
          b.once('data', () => {
            b.cancel();
            resolve();
          });
        });
      }
      expect(failures).to.deep.equal([]);
      await until(
        'svc_stream_clients back to 0 with the channel still open',
        2_000,
        async () => (await metric(rest, 'svc_stream_clients')) === 0,
      );
    } finally {
      client.close();
    }
  });
});

describe('hostile: StreamTicks clients that never read (in-process face)', function () {
  this.timeout(60_000);
  let fake: FakeSequencer;
  let face: GrpcFace;
  const clients: grpc.Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await face?.close();
  });

  async function tick(payloadBytes: number): Promise<void> {
    await fake.submit({
      txId: `t-${fake.ticks.length}-${Math.random()}`,
      payload: new Uint8Array(payloadBytes),
      signature: new Uint8Array(0),
      publicKey: new Uint8Array(0),
      nonce: 0n,
      timestamp: 0n,
    });
    fake.closeTick();
  }

  it('50 paused streams: no tick is encoded while all of them are stalled, queues stay bounded, a reader gets every tick, and the stall timeout frees them', async () => {
    fake = new FakeSequencer({ queueCapacity: 100_000 });
    face = await grpcFace(fake, { streamStallMs: 1500, maxStreamQueueBytes: 4 * 1024 * 1024 });
    await tick(100);
    const paused: grpc.ClientReadableStream<Buffer>[] = [];
    const ended: number[] = [];
    for (let i = 0; i < 50; i++) {
      const c = new grpc.Client(face.address, grpc.credentials.createInsecure(), {
        'grpc.use_local_subchannel_pool': 1,
      });
      clients.push(c);
      // A paused reader: grpc-js stops asking HTTP/2 for data once its 16-message buffer is full,
      // so flow control stops the node's writes. (A call nobody ever reads from is different:
      // grpc-js then keeps reading into the client's memory, and the node sees a reader.)
      const call = c.makeServerStreamRequest(
        STREAM_TICKS,
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
      );
      call.on('data', () => undefined);
      call.pause();
      call.on('error', (e: grpc.ServiceError) => ended.push(e.code));
      paused.push(call);
    }
    await until('50 streams open', 5_000, () => face.streamClients() === 50);
    // Ticks of ~20 KB fill each paused stream's 64 KiB window and its queue.
    for (let i = 0; i < 60; i++) await tick(20_000);
    // Stalled as the node sees it: every stream has writes pending that made no progress for
    // 600 ms, and nothing is encoded meanwhile. (A quiet 200 ms alone was not enough: in a
    // loaded full run a stream's client still took two more ticks after it.)
    await until('every paused stream stalled', 10_000, async () => {
      const before = face.feed.encodedCount;
      await new Promise((r) => setTimeout(r, 200));
      return face.streams.stalledCount(600) === 50 && face.feed.encodedCount === before;
    });
    const encodedBefore = face.feed.encodedCount;
    for (let i = 0; i < 200; i++) await tick(20_000);
    expect(face.feed.encodedCount, 'ticks encoded while every stream was stalled').to.equal(encodedBefore);
    expect(face.streams.queuedBytes, 'bytes queued by all streams').to.be.at.most(4 * 1024 * 1024 + 50 * 25_000);
    expect(face.feed.windowBytes, 'stream window').to.be.at.most(64 * 1024 * 1024);
    // A reader on its own connection gets every tick from here on, while the 50 stay paused.
    const reader = new SequencerClient(face.address);
    const got: number[] = [];
    const s = reader.stream(0);
    s.on('data', (t: { tick_number: string }) => got.push(Number(t.tick_number)));
    s.on('error', () => undefined);
    await until('reader got its first tick', 5_000, () => got.length > 0);
    for (let i = 0; i < 20; i++) await tick(20_000);
    await until('reader got 20 more ticks', 5_000, () => got.length >= 21);
    expect(got).to.deep.equal(Array.from({ length: got.length }, (_, i) => got[0]! + i));
    // The stall timeout resets the 50 (RST_STREAM) and frees their queues; the reader stays.
    await until('paused streams reset', 10_000, () => face.streamClients() === 1);
    expect(face.streams.stalledResets).to.equal(50);
    await until('paused clients see their streams end', 5_000, () => ended.length === 50);
    expect(new Set(ended)).to.deep.equal(new Set([grpc.status.RESOURCE_EXHAUSTED])); // RST_STREAM ENHANCE_YOUR_CALM
    expect(face.streams.queuedBytes).to.be.lessThan(1024 * 1024);
    s.cancel();
    reader.close();
    await until('all released', 2_000, () => face.streamClients() === 0);
  });

  it('per connection at most 16 streams: the 17th displaces the oldest; other connections are not affected', async () => {
    fake = new FakeSequencer();
    face = await grpcFace(fake);
    fake.closeTick();
    const client = new SequencerClient(face.address);
    const oldestEnded = new Promise<grpc.ServiceError>((resolve) =>
      client
        .stream(0)
        .on('error', resolve)
        .once('data', () => undefined),
    );
    const calls = Array.from({ length: 15 }, () => client.stream(0).on('error', () => undefined));
    await Promise.all(calls.map((c) => new Promise((r) => c.once('data', r))));
    await until('16 open', 2_000, () => face.streamClients() === 16);
    const newest = client.stream(0).on('error', () => undefined);
    await new Promise((r) => newest.once('data', r));
    calls.push(newest);
    const displaced = await oldestEnded;
    expect(displaced.code).to.equal(grpc.status.RESOURCE_EXHAUSTED);
    expect(displaced.details).to.match(
      /replaced by a newer tick stream on this connection \(at most 16 open per connection\)/,
    );
    expect(face.streamClients()).to.equal(16);
    const other = new SequencerClient(face.address, { 'grpc.use_local_subchannel_pool': 1 });
    const s = other.stream(0).on('error', () => undefined);
    await new Promise((r) => s.once('data', r));
    expect(face.streamClients()).to.equal(17);
    for (const c of calls) c.cancel();
    s.cancel();
    client.close();
    other.close();
    await until('released', 2_000, () => face.streamClients() === 0);
  });
});
