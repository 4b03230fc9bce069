/**
 * `svc chain watch` as the real `node bin/svc.js` child process against the real node's
 * WS /ws, reached through a TCP proxy the test cuts while orders flow: blocks from height 1,
 * an owner's order events from sequence 1 and a market's book, each printed once and in
 * order across the cuts (the SDK's ChannelClient resumes), in JSON lines and in lines for
 * people; the node's refusals (out_of_range, unknown_market) exit 1 with the code printed;
 * an unreachable node exits 1; wrong command lines exit 2 before connecting.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyPairFromSeed, parseExactJson, toBase58 } from '../../src/sdk/index.js';
import { startCutProxy, type CutProxy } from '../support/cut-proxy.js';
import { SVC_BIN, spawnNode, type NodeProcess } from '../support/node-process.js';
import { flowMarket, startOrderFlow, type OrderFlow } from '../support/order-flow.js';
import { until } from '../support/until.js';
import { sideBySide, svcProcess } from './support.js';

/** A running `svc chain watch`: its stdout lines so far, its stderr, its exit. */
interface Watcher {
  lines: string[];
  err(): string;
  exited: Promise<number | null>;
  /** Ctrl-C. */
  interrupt(): void;
  kill(): void;
}

function watcher(argv: string[], env: Record<string, string> = {}): Watcher {
  const child = spawn(process.execPath, [SVC_BIN, 'chain', 'watch', ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return { lines, err: () => err, exited, interrupt: () => child.kill('SIGINT'), kill: () => child.kill('SIGKILL') };
}

/** The order flow's seed: its first worker's owner is the one watched. */
const SEED = 41;

/** The owner of startOrderFlow's worker `w` with seed `seed`. */
function flowOwner(seed: number, w: number): string {
  const keySeed = new Uint8Array(32).fill(seed & 0xff);
  keySeed[1] = w;
  return toBase58(keyPairFromSeed(keySeed).publicKey);
}

describe('svc chain watch: the live channels from the terminal, resuming across cuts (real node)', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess;
  let proxy: CutProxy;
  let rpc: string;
  let flow: OrderFlow | undefined;
  const watchers: Watcher[] = [];
  const owner = flowOwner(SEED, 0);

  const height = async (): Promise<number> =>
    ((await (await fetch(`http://${node.addresses.rpc}/status`)).json()) as { block_height: number }).block_height;
  const start = (argv: string[], env: Record<string, string> = {}): Watcher => {
    const w = watcher(argv, env);
    watchers.push(w);
    return w;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-watch-'));
    node = await spawnNode(dir, ['--idle-tick-ms', '20', '--block-ms', '100'], ['grpc', 'rest', 'dex', 'rpc']);
    proxy = await startCutProxy(node.addresses.rpc!);
    rpc = `http://${proxy.address}`;
  });
  after(async () => {
    for (const w of watchers) w.kill();
    await flow?.stop();
    await proxy?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('blocks from height 1, orders from sequence 1 and the book: each once, in order, across cut connections; Ctrl-C exits 0', async () => {
    flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: SEED, concurrency: 2 });
    const market = flow.marketId;
    const blocks = start(['--from-height', '1', '--json', '--rpc-url', rpc]);
    const orders = start(['--channel', 'orders', '--owner', owner, '--from-sequence', '1', '--json'], {
      SVC_RPC_URL: rpc,
    });
    const book = start(['--channel', 'book', '--market', market, '--json', '--rpc-url', rpc]);
    const all = [blocks, orders, book];
    for (const downMs of [0, 1_000, 0]) {
      const seen = all.map((w) => w.lines.length);
      await until(
        'messages before the cut',
        () => (all.every((w, i) => w.lines.length > seen[i]! + 3) ? true : undefined),
        30_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: ${all.map((w) => `${w.lines.length} lines, stderr ${w.err()}`).join('; ')}`);
      });
      await proxy.cut(downMs);
    }
    await flow.stop();
    flow = undefined;
    // Everything the node made reaches the watchers: its newest block, the owner's last event.
    await new Promise((r) => setTimeout(r, 1_000));
    const newest = await height();
    await until('the newest block printed', () => (blocks.lines.length === newest ? true : undefined), 30_000);
    // The owner's channel has no event past the last one printed (a position beyond its head
    // + 1 is refused), and a fresh replay from sequence 1 prints the same lines, byte for byte.
    for (let last = -1; last !== orders.lines.length; await new Promise((r) => setTimeout(r, 500)))
      last = orders.lines.length;
    const printed = orders.lines.length;
    // Two reads of the owner's channel that change nothing: side by side.
    const [beyond, replay] = await Promise.all([
      svcProcess([
        'chain',
        'watch',
        '-c',
        'orders',
        '--owner',
        owner,
        '--from-sequence',
        String(printed + 2),
        '--rpc-url',
        rpc,
      ]),
      svcProcess([
        'chain',
        'watch',
        '-c',
        'orders',
        '--owner',
        owner,
        '--from-sequence',
        '1',
        '-n',
        String(printed),
        '--json',
        '--rpc-url',
        rpc,
      ]),
    ]);
    expect(beyond.code, beyond.err).to.equal(1);
    expect(beyond.err).to.match(/out_of_range/);
    expect(replay.code, replay.err).to.equal(0);
    for (const w of all) w.interrupt();
    for (const w of all) expect(await w.exited, w.err()).to.equal(0);

    const b = blocks.lines.map(
      (l) =>
        parseExactJson(l) as {
          type: string;
          height: number;
          tick: number;
          detail: { block: { height: number; last_tick: number } };
        },
    );
    expect(b.map((m) => m.height)).to.deep.equal(b.map((_, i) => i + 1));
    for (const m of b) {
      expect(m.type).to.equal('block');
      expect(m.detail.block.height).to.equal(m.height);
      expect(m.tick).to.equal(m.detail.block.last_tick);
    }
    const o = orders.lines.map((l) => parseExactJson(l) as { type: string; owner: string; seq: number });
    expect(o.map((m) => m.seq)).to.deep.equal(o.map((_, i) => i + 1));
    expect(new Set(o.map((m) => `${m.type} ${m.owner}`))).to.deep.equal(new Set([`order ${owner}`]));
    expect(orders.lines).to.deep.equal(replay.out.trim().split('\n'));
    for (const w of all)
      expect(w.err())
        .to.match(/connection lost .*reconnecting/)
        .and.match(/connected again .*resuming/);

    // The book: a snapshot, deltas seq + 1 each, and a new snapshot after each cut.
    const k = book.lines.map((l) => parseExactJson(l) as { type: string; market_id: string; seq: number });
    expect(k[0]!.type).to.equal('snapshot');
    expect(k.filter((m) => m.type === 'snapshot').length).to.be.at.least(4);
    for (let i = 1; i < k.length; i++)
      if (k[i]!.type === 'delta') expect(k[i]!.seq, `message ${i}`).to.equal(k[i - 1]!.seq + 1);
    expect(new Set(k.map((m) => m.market_id))).to.deep.equal(new Set([market]));
  });

  it('prints a line per message for people; stops after --count', async () => {
    // Three reads that change nothing on the node: side by side.
    const market = await flowMarket(`http://${node.addresses.dex}`);
    const [r, o, k] = await Promise.all([
      svcProcess(['chain', 'watch', '--from-height', '2', '-n', '3', '--rpc-url', rpc]),
      svcProcess([
        'chain',
        'watch',
        '-c',
        'orders',
        '--owner',
        owner,
        '--from-sequence',
        '1',
        '-n',
        '2',
        '--rpc-url',
        rpc,
      ]),
      svcProcess(['chain', 'watch', '-c', 'book', '-m', market, '-n', '1', '--rpc-url', rpc]),
    ]);
    expect(r.code, r.err).to.equal(0);
    const lines = r.out.trim().split('\n');
    expect(lines).to.have.length(3);
    lines.forEach((l, i) =>
      expect(l).to.match(new RegExp(`^block ${i + 2}  tick \\d+  \\d+ transactions?, \\d+ events, \\d+ trades`)),
    );
    expect(o.code, o.err).to.equal(0);
    expect(o.out.trim().split('\n')[0]).to.match(
      /^order seq 1 {2}tick \d+ {2}accepted {2}order \d+ {2}market [0-9a-f-]{36} {2}(Buy|Sell) at \d+ {2}quantity \d+/,
    );
    expect(k.code, k.err).to.equal(0);
    expect(k.out.trim()).to.match(
      /^book \S+ seq \d+ {2}tick \d+ {2}snapshot \(\d+ levels?\) {2}best bid (none|\d+ @ \d+) {2}best ask (none|\d+ @ \d+) {2}depth \d+\/\d+$/,
    );
  });

  it('exits 1 with the code when the node refuses the subscription, or cannot be reached', async () => {
    // Four refused or unreachable subscriptions, each its own process: side by side.
    const nobody = toBase58(new Uint8Array(32).fill(99));
    const noMarket = '00000000-0000-4000-8000-000000000000';
    const [far, seq, market, away] = await Promise.all([
      svcProcess(['chain', 'watch', '--from-height', String((await height()) + 1000), '--rpc-url', rpc]),
      svcProcess(['chain', 'watch', '-c', 'orders', '--owner', nobody, '--from-sequence', '2', '--rpc-url', rpc]),
      svcProcess(['chain', 'watch', '-c', 'book', '-m', noMarket, '--rpc-url', rpc]),
      svcProcess(['chain', 'watch', '--rpc-url', 'http://127.0.0.1:1']),
    ]);
    expect(far.code).to.equal(1);
    expect(far.err).to.match(/^svc chain watch: the node refused the subscription: out_of_range: /);
    expect(seq.code).to.equal(1);
    expect(seq.err).to.match(/refused the subscription: out_of_range: /);
    expect(market.code).to.equal(1);
    expect(market.err).to.match(/refused the subscription: unknown_market: /);
    expect(away.code).to.equal(1);
    expect(away.err).to.match(
      /^svc chain watch: cannot reach ws:\/\/127\.0\.0\.1:1\/ws: .*ECONNREFUSED.*is the node running\?/,
    );
  });
});

// No node here: the command must refuse these before connecting, and a running node's clock
// thread (a core, squaring without pause) would only slow the 13 processes down.
describe('svc chain watch: wrong command lines (no node)', function () {
  this.timeout(180_000);
  const owner = flowOwner(SEED, 0);

  it('exits 2 on a wrong command line, before connecting', async () => {
    // Each case is its own process with its own exit code and stderr: they run side by side.
    const cases = [
      ['--channel', 'trades'],
      ['--channel', 'orders'],
      ['--channel', 'orders', '--owner', 'not-a-key-or-a-file/'],
      ['--channel', 'book'],
      ['--channel', 'book', '--market', 'ABC'],
      ['--from-height', '0'],
      ['--from-height', 'x'],
      ['--owner', owner],
      ['--channel', 'book', '--market', '00000000-0000-4000-8000-000000000000', '--from-height', '3'],
      ['--count', '0'],
      ['--rpc-url', 'ftp://host:1'],
      ['extra'],
      ['--form-height', '1'],
    ];
    const runs = await sideBySide(cases, (argv) =>
      svcProcess([
        'chain',
        'watch',
        ...argv,
        ...(argv.includes('--rpc-url') ? [] : ['--rpc-url', 'http://127.0.0.1:1']),
      ]),
    );
    expect(runs).to.have.length(13);
    cases.forEach((argv, i) => {
      const r = runs[i]!;
      expect(r.code, `${argv.join(' ')}: ${r.err}`).to.equal(2);
      expect(r.err, argv.join(' ')).to.match(/^svc chain watch: /);
      expect(r.err, argv.join(' ')).to.not.match(/cannot reach/);
    });
  });
});
