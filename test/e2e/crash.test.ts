/**
 * End to end through the real binary and the real engine: `kill -9` under load while a
 * client streams ticks, then a restart on the same database. Every tick the client saw
 * must come back byte-identical through GetTick, every acknowledged transaction must be
 * found in a tick, and tick and sequence numbers must continue. Also SIGTERM: a graceful
 * exit 0 with all acknowledged work ticked.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SequencerClient, wireTx, type WireSubmitResponse, type WireTick } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';

const SERVICE = '/svc.sequencer.v1.SequencerService';
const identity = (b: Buffer) => b;

/** StreamTicks with raw message bytes, so "byte-identical" means bytes. */
function rawStream(address: string, startTick: number, onTick: (bytes: Buffer) => void) {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1 });
  const req = Buffer.from([0x08, startTick]); // start_tick (< 128)
  const call = client.makeServerStreamRequest(`${SERVICE}/StreamTicks`, identity, identity, req);
  call.on('data', onTick);
  call.on('error', () => {});
  return {
    close: () => {
      call.cancel();
      client.close();
    },
  };
}

/** GetTick with raw bytes: returns the embedded Tick message bytes, or undefined if not found. */
function rawGetTick(client: grpc.Client, n: number): Promise<Buffer | undefined> {
  const req = encodeVarintField(1, n);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(`${SERVICE}/GetTick`, identity, identity, req, (err, res) => {
      if (err) return reject(err);
      // GetTickResponse: field 1 (tick, bytes) then field 2 (found)
      if (!res || res.length === 0 || res[0] !== 0x0a) return resolve(undefined);
      let len = 0;
      let shift = 0;
      let pos = 1;
      for (;;) {
        const b = res[pos++]!;
        len += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (b < 0x80) break;
      }
      resolve(res.subarray(pos, pos + len));
    });
  });
}

function encodeVarintField(field: number, value: number): Buffer {
  const out = [field << 3];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** tick_number is field 1 of Tick, always first in our encoding. */
function tickNumberOf(tick: Buffer): number {
  expect(tick[0]).to.equal(0x08);
  let n = 0;
  let mul = 1;
  for (let pos = 1; ; pos++) {
    const b = tick[pos]!;
    n += (b & 0x7f) * mul;
    mul *= 128;
    if (b < 0x80) return n;
  }
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (i < items.length) await work(items[i++]!);
    }),
  );
}

/** sequence_number -> tx_hash of every transaction in the chain, read by replaying it through StreamTicks. */
async function chainContents(client: SequencerClient): Promise<Map<string, string>> {
  let height = 0;
  for (let i = 0; i < 200; i++) {
    const s = await client.call<{ current_tick: string; pending_transactions: string }>('GetStatus', {});
    height = Number(s.current_tick);
    if (s.pending_transactions === '0') break; // recovered write-ahead records are ticked
    await new Promise((r) => setTimeout(r, 50));
  }
  const out = new Map<string, string>();
  const stream = client.stream(1);
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (t: WireTick) => {
      for (const o of t.transactions) out.set(o.sequence_number, o.tx_hash);
      if (Number(t.tick_number) >= height) resolve();
    });
    stream.on('error', reject);
  });
  stream.cancel();
  return out;
}

interface Ack {
  r: WireSubmitResponse;
  ticksSeenAtAck: number; // how many ticks the streaming client had seen when the ack came
}

describe('end to end: crash and restart through the real binary', function () {
  this.timeout(90_000);
  let dir: string;
  let node: NodeProcess | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-'));
  });
  afterEach(async () => {
    if (node && node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill('SIGKILL');
      await node.exited;
    }
    node = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  // Once with intake on the main thread, once on an intake thread (issue 8 point 2).
  for (const intake of [[], ['--intake-threads', '1']]) {
    it(`kill -9 under load${intake.length ? ' with intake threads' : ''}: seen ticks come back byte-identical, acknowledged transactions are ticked, numbering continues`, async () => {
      node = await spawnNode(dir, ['--idle-tick-ms', '20', ...intake]);
      const seen = new Map<number, Buffer>();
      let lastSeen = 0;
      const stream = rawStream(node.addresses.grpc!, 1, (bytes) => {
        const n = tickNumberOf(bytes);
        expect(n, 'stream has no gaps or duplicates').to.equal(lastSeen + 1);
        lastSeen = n;
        seen.set(n, Buffer.from(bytes));
      });
      const client = new SequencerClient(node.addresses.grpc!);
      const acks: Ack[] = [];
      let loading = true;
      const submitter = async (size: number) => {
        while (loading) {
          try {
            const res = await client.submitBatch(Array.from({ length: size }, () => wireTx(200, 'crash')));
            const at = seen.size;
            for (const r of res.responses) if (r.sequence_number !== '0') acks.push({ r, ticksSeenAtAck: at });
          } catch {
            // RESOURCE_EXHAUSTED or the kill itself: not acknowledged
          }
        }
      };
      const load = [submitter(200), submitter(50)];
      const started = Date.now();
      while (Date.now() - started < 1000 || acks.length < 300) await new Promise((r) => setTimeout(r, 50));
      if (process.env.SVC_E2E_DEBUG)
        console.log('load phase', Date.now() - started, 'ms', acks.length, 'acks', seen.size, 'ticks');
      node.child.kill('SIGKILL');
      expect(await node.exited).to.equal('SIGKILL');
      loading = false;
      await Promise.all(load);
      stream.close();
      client.close();

      const ticksSeen = seen.size;
      expect(ticksSeen).to.be.greaterThan(2);
      const ackedBeforeLastTick = acks.filter((a) => a.ticksSeenAtAck < ticksSeen);
      expect(ackedBeforeLastTick.length).to.be.greaterThan(0);
      const maxSeq = Math.max(...acks.map((a) => Number(a.r.sequence_number)));

      node = await spawnNode(dir, ['--idle-tick-ms', '20', ...intake]);
      const raw = new grpc.Client(node.addresses.grpc!, grpc.credentials.createInsecure(), {
        'grpc.max_receive_message_length': -1,
      });
      const after = new SequencerClient(node.addresses.grpc!);
      try {
        for (const [n, bytes] of seen) {
          const again = await rawGetTick(raw, n);
          expect(again, `tick ${n} after restart`).to.not.equal(undefined);
          expect(again!.equals(bytes), `tick ${n} is byte-identical after restart`).to.equal(true);
        }
        if (process.env.SVC_E2E_DEBUG) console.log('ticks checked', Date.now() - started);
        // Every acknowledged transaction is in a tick: replay the whole chain once through
        // StreamTicks and match (sequence number, tx_hash) exactly; then spot-check GetTransaction.
        const inChain = await chainContents(after);
        const missing = acks
          .filter((a) => inChain.get(a.r.sequence_number) !== a.r.tx_hash)
          .map(
            (a) =>
              `${a.r.tx_hash}#${a.r.sequence_number}${a.ticksSeenAtAck < ticksSeen ? ' (acked before the last tick seen)' : ''}`,
          );
        expect(missing, 'acknowledged transactions missing after restart').to.deep.equal([]);
        const sample = acks.filter((_, i) => i % Math.ceil(acks.length / 50) === 0);
        await inParallel(sample, 8, async (a) => {
          const got = await after.call<{ found: boolean }>('GetTransaction', { tx_hash: a.r.tx_hash });
          expect(got.found, `GetTransaction ${a.r.tx_hash}`).to.equal(true);
        });
        if (process.env.SVC_E2E_DEBUG) console.log('transactions checked', Date.now() - started);
        const status = await after.call<{ current_tick: string }>('GetStatus', {});
        expect(Number(status.current_tick)).to.be.at.least(lastSeen);
        const next = await after.submit(wireTx(10, 'after'));
        expect(Number(next.sequence_number)).to.be.greaterThan(maxSeq);
        expect(Number(next.expected_tick)).to.be.greaterThan(lastSeen);
      } finally {
        raw.close();
        after.close();
      }
    });
  }

  it('SIGTERM: exits 0 after ticking out acknowledged work, streams get every tick and end OK; restart continues the chain', async () => {
    node = await spawnNode(dir, ['--idle-tick-ms', '50']);
    const client = new SequencerClient(node.addresses.grpc!);
    const streamed = new Map<string, string>(); // sequence_number -> tx_hash seen on the stream
    const stream = client.stream(1);
    stream.on('data', (t: WireTick) => {
      for (const o of t.transactions) streamed.set(o.sequence_number, o.tx_hash);
    });
    const streamEnd = new Promise<number>((resolve) => {
      stream.on('status', (st: grpc.StatusObject) => resolve(st.code));
      stream.on('error', () => {});
    });
    const acks: WireSubmitResponse[] = [];
    for (let i = 0; i < 5; i++)
      acks.push(...(await client.submitBatch(Array.from({ length: 100 }, () => wireTx(200, 'term')))).responses);
    const inflight = client.submitBatch(Array.from({ length: 100 }, () => wireTx(200, 'term-late'))).then(
      (r) => acks.push(...r.responses),
      () => undefined,
    );
    node.child.kill('SIGTERM');
    expect(await node.exited).to.equal(0);
    await inflight;
    expect(await streamEnd, 'the tick stream ends with OK on shutdown').to.equal(grpc.status.OK);
    client.close();
    expect(node.stderr()).to.not.match(/"level":(50|60)/);
    const accepted = acks.filter((a) => a.sequence_number !== '0');
    expect(accepted.length).to.be.at.least(500);
    const notStreamed = accepted.filter((a) => streamed.get(a.sequence_number) !== a.tx_hash);
    expect(notStreamed.length, 'acknowledged transactions the stream never delivered before shutdown').to.equal(0);

    node = await spawnNode(dir, ['--idle-tick-ms', '50']);
    const after = new SequencerClient(node.addresses.grpc!);
    try {
      const inChain = await chainContents(after);
      const missing = accepted
        .filter((a) => inChain.get(a.sequence_number) !== a.tx_hash)
        .map((a) => `${a.tx_hash}#${a.sequence_number}`);
      expect(missing, 'acknowledged transactions missing after SIGTERM and restart').to.deep.equal([]);
      const status = await after.call<{ pending_transactions: string; total_transactions: string }>('GetStatus', {});
      expect(Number(status.total_transactions)).to.be.at.least(accepted.length);
      const next = await after.submit(wireTx(10, 'after-term'));
      expect(Number(next.sequence_number)).to.be.greaterThan(
        Math.max(...accepted.map((a) => Number(a.sequence_number))),
      );
    } finally {
      after.close();
    }
  });
});
