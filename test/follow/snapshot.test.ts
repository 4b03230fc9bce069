/**
 * A full node started from its leader's snapshot (issue 9 point 5, --follow-from snapshot;
 * docs/full-node.md "Starting from a snapshot"). A real leader (in process, real gRPC and
 * LevelDB) under orders and cancels takes several snapshots; a new follower fetches the
 * latest over StreamSnapshot, stores no tick below its tick T, and then every block it
 * serves (every block produced after T, the one open at T included) and every book equal
 * the leader's byte for byte. A fake leader serving a tampered snapshot (decodable, its
 * SHA-256 right) makes the follower stop at the first block after T; bytes that do not
 * match the announced SHA-256, fewer or more than announced, open block records that do not
 * fit the snapshot, or a tick T whose proof fails, are refused at start with nothing
 * written; a leader with no snapshot yet is a clear error.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { NodeClient, type WireTick } from '../../src/sequencer/api/client/index.js';
import { decodeStoredSnapshot, encodeStoredSnapshot } from '../../src/chain/core/store.js';
import { nodeConfig } from '../../src/config/index.js';
import type { Tick, Transaction } from '../../src/core/types.js';
import { openDatabase } from '../../src/db/index.js';
import {
  fetchSnapshot,
  SNAPSHOT_CHUNK_BYTES,
  wireSnapshotInfo,
  type SnapshotInfo,
  type WireBlockRoot,
  type WireSnapshotChunk,
} from '../../src/follow/index.js';
import type { OpenRecords } from '../../src/chain/core/index.js';
import { silentLogger } from '../../src/log/index.js';
import { startNode, StartupError, type NodeHandle } from '../../src/node/index.js';
import { DiskTickStore } from '../../src/store/disk-store.js';
import { makeTicks } from '../chain/support/flow.js';
import { tempDirs } from '../support/temp-dirs.js';
import { until } from '../support/until.js';
import { fakeLeader, recordBlockRoots, wireOf } from './support/fake-leader.js';

const PORTS = [
  '--grpc-addr',
  '127.0.0.1:0',
  '--rest-addr',
  '127.0.0.1:0',
  '--dex-addr',
  '127.0.0.1:0',
  '--rpc-addr',
  '127.0.0.1:0',
];
const CHAIN = ['--block-ms', '50', '--gateways', '0'];
const LEADER = [
  ...CHAIN,
  '--idle-tick-ms',
  '20',
  '--vdf-iterations',
  '200',
  '--snapshot-txs',
  '20',
  '--snapshot-ticks',
  '40',
];
const QUIET = { logger: silentLogger(), print: () => undefined, poolThreads: 1 };

async function text(url: string): Promise<string> {
  const r = await fetch(url);
  return `${r.status} ${await r.text()}`;
}

const height = async (n: NodeHandle): Promise<number> =>
  ((await (await fetch(`http://${n.addresses.rpc}/status`)).json()) as { block_height: number }).block_height;

/** The messages StreamSnapshot sends for these bytes and records (as the real service splits them). */
function messagesOf(info: SnapshotInfo, bytes: Uint8Array, open: OpenRecords): WireSnapshotChunk[] {
  const out: WireSnapshotChunk[] = [{ info: wireSnapshotInfo(info) }];
  for (let off = 0; off < bytes.length; off += SNAPSHOT_CHUNK_BYTES)
    out.push({ data: Buffer.from(bytes.subarray(off, off + SNAPSHOT_CHUNK_BYTES)) });
  if (open.transactions.length > 0) out.push({ open_transactions: open.transactions });
  if (open.events.length > 0) out.push({ open_events: open.events });
  return out;
}

describe('full node started from a leader snapshot (--follow-from snapshot)', function () {
  this.timeout(120_000);
  const temp = tempDirs('svc-follow-snap-');
  const dir = (): string => temp.make();
  const nodes: NodeHandle[] = [];
  const start = async (args: string[]): Promise<NodeHandle> => {
    const n = await startNode(nodeConfig([...PORTS, ...args]), QUIET);
    nodes.push(n);
    return n;
  };

  let leader: NodeHandle;
  let recorded: {
    snapshot: { info: SnapshotInfo; bytes: Uint8Array; open: OpenRecords };
    ticks: WireTick[];
    roots: WireBlockRoot[];
  };

  after(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    temp.removeAll();
  });

  it("starts from the snapshot, stores no tick below T, and every block after T and every book equal the leader's byte for byte", async () => {
    leader = await start([...LEADER, '--db-path', dir()]);
    const groups: Transaction[][] = makeTicks(120, 11)
      .map((t) => t.transactions.map((o) => o.transaction))
      .filter((g) => g.length > 0);
    const half = Math.floor(groups.length * 0.6);
    const submit = async (gs: Transaction[][]): Promise<void> => {
      for (const g of gs) {
        await leader.sequencer.submitBatch(g);
        await new Promise((r) => setTimeout(r, 15)); // spread over ticks, blocks and snapshots
      }
    };
    await submit(groups.slice(0, half));
    const snapshot = await until('a leader snapshot', () =>
      fetchSnapshot(leader.addresses.grpc!).catch(() => undefined),
    );
    expect(snapshot.info.producedHeight).to.be.greaterThan(0);

    const followerDb = dir();
    const follower = await start([
      ...CHAIN,
      '--db-path',
      followerDb,
      '--follow',
      leader.addresses.grpc!,
      '--follow-from',
      'snapshot',
    ]);
    await submit(groups.slice(half));
    const leaderTick = leader.sequencer.status().currentTick;
    await until('the follower at the leader tick', () =>
      follower.sequencer.status().currentTick >= leaderTick ? true : undefined,
    );
    const top = await height(leader);
    await until('the follower at the leader height', async () => ((await height(follower)) >= top ? true : undefined));

    // Its first stored tick T: nothing below it, tick T and after served.
    let first = 0;
    for (let n = 1; n <= leaderTick && first === 0; n++) if (await follower.sequencer.getTick(n)) first = n;
    expect(first).to.be.greaterThan(1);
    expect(first).to.be.at.least(snapshot.info.tick);
    const read: number[] = [];
    for await (const t of follower.sequencer.readTicks(1, first + 2)) read.push(t.tickNumber);
    expect(read).to.deep.equal([first, first + 1, first + 2]);
    expect(await text(`http://${follower.addresses.rest}/api/v1/tick/${first - 1}`)).to.match(/^404 /);

    // Blocks: the follower serves none produced before T, then every one, equal to the leader's.
    let served = 0;
    let missing = 0;
    for (let h = 1; h <= top; h++) {
      const mine = await text(`http://${follower.addresses.rpc}/blocks/${h}`);
      if (mine.startsWith('404 ')) {
        expect(served, `block ${h} missing after served ones`).to.equal(0);
        missing++;
        continue;
      }
      expect(mine, `block ${h}`).to.equal(await text(`http://${leader.addresses.rpc}/blocks/${h}`));
      served++;
    }
    expect(missing).to.be.greaterThan(0);
    expect(served).to.be.greaterThan(1);
    const markets = (await (await fetch(`http://${leader.addresses.dex}/markets`)).json()) as {
      data: Array<{ market_id: string }>;
    };
    expect(markets.data.length).to.be.greaterThan(0);
    expect(await text(`http://${follower.addresses.dex}/markets`)).to.equal(
      await text(`http://${leader.addresses.dex}/markets`),
    );
    for (const m of markets.data) {
      const book = `/markets/${m.market_id}/orderbook?orders=true`;
      expect(await text(`http://${follower.addresses.dex}${book}`), `book ${m.market_id}`).to.equal(
        await text(`http://${leader.addresses.dex}${book}`),
      );
    }
    const stillRunning = await Promise.race([
      follower.failed.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 300)),
    ]);
    expect(stillRunning, 'its root check agreed').to.equal(true);

    // Recorded for the fake leader below: the snapshot before the second half, every tick and block root.
    const ticks: Tick[] = [];
    for await (const t of leader.sequencer.readTicks(1, leaderTick)) ticks.push(t);
    const roots = await recordBlockRoots(leader.addresses.grpc!, top);
    recorded = { snapshot, ticks: ticks.map(wireOf), roots };
    expect(roots.length).to.be.greaterThan(snapshot.info.producedHeight);

    // Restarted on its store, the flag is ignored: it resumes from its own ticks (still none below T).
    await follower.close();
    const again = await start([
      ...CHAIN,
      '--db-path',
      followerDb,
      '--follow',
      leader.addresses.grpc!,
      '--follow-from',
      'snapshot',
    ]);
    expect(again.sequencer.status().currentTick).to.be.at.least(leaderTick);
    expect(await again.sequencer.getTick(first - 1)).to.equal(undefined);
    // StreamTicks from below its first tick: OUT_OF_RANGE naming it, not a broken stream.
    const reader = new NodeClient(again.addresses.grpc!);
    const refused = await new Promise<grpc.ServiceError>((resolve, reject) => {
      const s = reader.streamTicks(1);
      s.on('data', () => reject(new Error('a tick below the first was streamed')));
      s.on('error', resolve);
      s.on('end', () => reject(new Error('the stream ended without an error')));
    });
    reader.close();
    expect(refused.code).to.equal(grpc.status.OUT_OF_RANGE);
    expect(refused.details).to.include(`start at tick ${first}`);
    expect(await text(`http://${again.addresses.rpc}/blocks/${top}`)).to.equal(
      await text(`http://${leader.addresses.rpc}/blocks/${top}`),
    );
    await again.close();
  });

  it('a tampered snapshot (decodable, its SHA-256 right) halts the follower at the first block after T, naming it', async () => {
    const { info, bytes, open } = recorded.snapshot;
    const snap = decodeStoredSnapshot(bytes);
    const engine = Buffer.from(snap.engine);
    const at = engine.indexOf('ELEVEN/TWELVE');
    expect(at).to.be.greaterThan(0);
    engine.write('F', at + 'ELEVEN/TWELV'.length); // a market renamed: the state root commits to it
    const tampered = encodeStoredSnapshot({ ...snap, engine });
    const fake = await fakeLeader(recorded.ticks, recorded.roots, {
      snapshot: messagesOf(
        { ...info, totalBytes: tampered.length, sha256: createHash('sha256').update(tampered).digest('hex') },
        tampered,
        open,
      ),
    });
    try {
      const follower = await start([
        ...CHAIN,
        '--db-path',
        dir(),
        '--follow',
        fake.address,
        '--follow-from',
        'snapshot',
      ]);
      // Halted, not stopped: it keeps serving what it verified and reports the block.
      const halted = await until('the follower halts', () => follower.sequencer.status().follow?.halted, 30_000);
      expect(halted.code).to.equal('STATE_ROOT_MISMATCH');
      expect(halted.block).to.equal(info.producedHeight + 1);
      expect(halted.message).to.match(new RegExp(`^block ${info.producedHeight + 1}: its state_root`));
      await follower.close();
    } finally {
      await fake.close();
    }
  });

  /** Start a follower of a fake leader serving these snapshot messages: it must refuse at start, writing nothing. */
  async function refusedAtStart(messages: WireSnapshotChunk[], why: RegExp, ticks = recorded.ticks): Promise<void> {
    const fake = await fakeLeader(ticks, recorded.roots, { snapshot: messages });
    const db = dir();
    try {
      const err = await start([...CHAIN, '--db-path', db, '--follow', fake.address, '--follow-from', 'snapshot']).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(StartupError);
      expect((err as Error).message).to.match(why);
    } finally {
      await fake.close();
    }
    const opened = await openDatabase(db);
    try {
      expect(await new DiskTickStore(opened).meta.get('head')).to.equal(undefined);
      expect(
        await opened.sublevel<string, Uint8Array>('chain-meta', { valueEncoding: 'view' }).get('snapshot'),
      ).to.equal(undefined);
      expect(await opened.sublevel<string, string>('follow-meta', { valueEncoding: 'utf8' }).get('matched')).to.equal(
        undefined,
      );
    } finally {
      await opened.close();
    }
  }

  it('bytes that do not match the announced SHA-256, fewer or more than announced, or an oversized announcement, are refused at start with nothing written', async () => {
    const { info, bytes, open } = recorded.snapshot;
    const flipped = Uint8Array.from(bytes);
    flipped[flipped.length - 1]! ^= 1;
    await refusedAtStart(
      messagesOf(info, flipped, open),
      /is refused: its bytes hash to [0-9a-f]{64}, not the announced SHA-256/,
    );
    await refusedAtStart(
      messagesOf(info, bytes.subarray(0, bytes.length - 10), { transactions: [], events: [] }),
      new RegExp(`is refused: it is truncated: ${bytes.length - 10} of the ${bytes.length} bytes`),
    );
    const more = messagesOf(info, bytes, { transactions: [], events: [] });
    more.push({ data: Buffer.from([1, 2, 3]) });
    await refusedAtStart(more, new RegExp(`is refused: it sends more than the ${bytes.length} bytes it announced`));
    await refusedAtStart(
      [{ info: wireSnapshotInfo({ ...info, totalBytes: 2 * 1024 ** 3 }) }],
      /is refused: it announces 2147483648 bytes, above the limit/,
    );
    const after = [...messagesOf(info, bytes, open), { data: Buffer.from([1]) }];
    await refusedAtStart(
      after,
      /is refused: (snapshot bytes arrived after its open block records|it sends more than the \d+ bytes it announced)/,
    );
    await refusedAtStart(
      messagesOf(info, bytes, {
        transactions: [...open.transactions, open.transactions[0] ?? '{}'],
        events: open.events,
      }),
      /is refused: the records of its open block do not fit it: /,
    );
  });

  it('a tick T whose VDF proof does not verify is refused at start with nothing written', async () => {
    const { info, bytes, open } = recorded.snapshot;
    const ticks = recorded.ticks.map((t) => structuredClone(t));
    const p = ticks[info.tick - 1]!.vdf_proof;
    p.proof = (p.proof[0] === '0' ? '1' : '0') + p.proof.slice(1);
    await refusedAtStart(
      messagesOf(info, bytes, open),
      new RegExp(`\\(tick ${info.tick}\\) is refused: tick ${info.tick} fails verification: `),
      ticks,
    );
  });

  it('a leader with no snapshot yet: a clear error at start', async () => {
    const fresh = await start([...CHAIN, '--idle-tick-ms', '20', '--vdf-iterations', '200', '--db-path', dir()]);
    const err = await start([
      ...CHAIN,
      '--db-path',
      dir(),
      '--follow',
      fresh.addresses.grpc!,
      '--follow-from',
      'snapshot',
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(StartupError);
    expect((err as Error).message).to.match(
      /serves no snapshot \(--follow-from snapshot\): this node has no chain snapshot yet/,
    );
  });
});
