/**
 * The sequencer CLI against a real node (the `svc node` binary on port 0): tx send (flags,
 * twice, a file, --wait), tx get, tick get, ticks watch, status and verify, with their JSON
 * forms checked against the node's own REST answers and the VDF reference engine, and the
 * ways they fail: unknown hash or tick, malformed input, an unreachable node.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRestTick, referenceVdfEngine } from '../../src/vdf/index.js';
import { spawn } from 'node:child_process';
import { SVC_BIN, spawnNode, type NodeProcess } from '../support/node-process.js';
import { childOutput } from '../support/child-output.js';
import { svc, svcProcess } from './support.js';

const LINE = /^(\S+) {2}tx_hash ([0-9a-f]{8}) {2}sequence (\d+) {2}expected tick (\d+)(?: {2}in tick (\d+))?$/;

describe('svc CLI against a real node: tx, tick, ticks, status, verify', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess;
  let url: string;
  let rest: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
    node = await spawnNode(join(dir, 'db'), ['--idle-tick-ms', '20']);
    url = node.addresses.grpc!;
    rest = `http://${node.addresses.rest}`;
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('tx send prints tx_id, hash, sequence and expected tick; the same command twice sends two transactions', async () => {
    const a = await svc('tx', 'send', '--payload', 'hello', '--grpc-url', url);
    const b = await svc('tx', 'send', '--payload', 'hello', '--grpc-url', url);
    expect(a.code, a.err).to.equal(0);
    expect(b.code, b.err).to.equal(0);
    const [ma, mb] = [LINE.exec(a.out), LINE.exec(b.out)];
    expect(ma, a.out).to.not.equal(null);
    expect(mb, b.out).to.not.equal(null);
    expect(ma![1]).to.match(/^cli-/);
    expect(ma![1]).to.not.equal(mb![1]); // fresh tx_id each time: no ALREADY_EXISTS
    expect(Number(mb![3])).to.be.greaterThan(Number(ma![3]));
  });

  it('tx send --wait waits for the tick; tx get finds it there, for people and as JSON', async () => {
    const s = await svc(
      'tx',
      'send',
      '--payload',
      'wait for me',
      '--id',
      `wait-${process.pid}-${Date.now()}`,
      '--nonce',
      '7',
      '--wait',
      '--grpc-url',
      url,
    );
    expect(s.code, s.err).to.equal(0);
    const m = LINE.exec(s.out)!;
    expect(m[5], s.out).to.match(/^\d+$/);
    const [hash, tick] = [m[2]!, Number(m[5])];
    const human = await svc('tx', 'get', hash, '--grpc-url', url);
    expect(human.code, human.err).to.equal(0);
    expect(human.out).to.match(new RegExp(`^tx ${hash}: in tick ${tick}, sequence ${m[3]}$`, 'm'));
    expect(human.out).to.contain('payload     11 bytes "wait for me"').and.contain('nonce       7');
    const json = JSON.parse((await svc('tx', 'get', hash, '--json', '--grpc-url', url)).out) as Record<string, unknown>;
    const viaRest = (await (await fetch(`${rest}/api/v1/tx/${hash}`)).json()) as {
      tick_number: number;
      sequence_number: number;
      transaction: { tx_id: string };
    };
    expect(json).to.include({
      found: true,
      tx_hash: hash,
      tick_number: viaRest.tick_number,
      sequence_number: viaRest.sequence_number,
      tx_id: viaRest.transaction.tx_id,
      nonce: 7,
    });
    expect(json.payload).to.equal(Buffer.from('wait for me').toString('hex'));
  });

  it('tx send --file sends JSON lines with SubmitBatch; a refused item is named, the others go on', async () => {
    const file = join(dir, 'txs.jsonl');
    const id = `file-${process.pid}-${Date.now()}`;
    await writeFile(
      file,
      `${[`{"tx_id":"${id}-a","payload":"one"}`, `{"tx_id":"${'x'.repeat(129)}","payload_hex":"00ff"}`, `{"tx_id":"${id}-c","payload_base64":"AAEC","nonce":3}`].join('\n')}\n`,
    );
    const r = await svc('tx', 'send', '--file', file, '--json', '--grpc-url', url);
    expect(r.code).to.equal(1);
    const lines = r.out.split('\n').map((l) => JSON.parse(l) as { tx_id: string; tx_hash?: string; error?: string });
    expect(lines.map((l) => l.tx_id)).to.deep.equal([`${id}-a`, 'x'.repeat(129), `${id}-c`]);
    expect(lines[0]!.tx_hash).to.match(/^[0-9a-f]{8}$/);
    expect(lines[1]!.error).to.match(/^INVALID_ARGUMENT: .*tx_id/);
    expect(lines[2]!.tx_hash).to.match(/^[0-9a-f]{8}$/);
    expect(r.err).to.equal('svc tx send: 1 of 3 transactions refused');
  });

  it('refuses malformed input before sending, with exit code 2', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, '{"tx_id":"a","paylod":"typo"}\n');
    const typo = await svc('tx', 'send', '--file', file, '--grpc-url', url);
    expect(typo.code).to.equal(2);
    expect(typo.err).to.contain(`${file} line 1: unknown field 'paylod'`);
    const hex = await svc('tx', 'send', '--payload-hex', 'abc', '--grpc-url', url);
    expect(hex.code).to.equal(2);
    expect(hex.err).to.contain('--payload-hex must be hex');
    const both = await svc('tx', 'send', '--payload', 'a', '--payload-hex', '00', '--grpc-url', url);
    expect(both.code).to.equal(2);
    const nonce = await svc('tx', 'send', '--nonce', '-1', '--grpc-url', url);
    expect(nonce.err).to.contain("--nonce must be an unsigned 64-bit integer, got '-1'");
    const target = await svc('status', '--grpc-url', 'nonsense');
    expect(target.code).to.equal(2);
    expect(target.err).to.contain(
      "svc status: --grpc-url: expected host:port (e.g. 127.0.0.1:9090 or [::1]:9090), got 'nonsense'",
    );
    const tls = await svc('status', '--grpc-url', 'https://node:9090');
    expect(tls.err).to.contain('the node serves plaintext gRPC');
    const flag = await svc('tx', 'send', '--payloda', 'x');
    expect(flag.err).to.contain('unknown flag --payloda (did you mean --payload?)');
  });

  it("tx get: an unknown hash exits 1; a malformed one reports the node's INVALID_ARGUMENT", async () => {
    const none = await svc('tx', 'get', '00000000', '--grpc-url', url);
    expect(none.code).to.equal(1);
    expect(none.err).to.equal(`svc tx get: no transaction with hash 00000000 in a tick on ${url} (yet)`);
    const bad = await svc('tx', 'get', 'zz', '--grpc-url', url);
    expect(bad.code).to.equal(1);
    expect(bad.err).to.match(/^svc tx get: the node answered INVALID_ARGUMENT: /);
  });

  it('tick get shows a tick for people, and as the REST tick object whose proof verifies', async () => {
    const human = await svc('tick', 'get', '2', '--grpc-url', url);
    expect(human.code, human.err).to.equal(0);
    expect(human.out).to.match(
      /^tick 2\n {2}time {10}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\n {2}transactions {2}\d+\n {2}iterations {4}\d+\n/,
    );
    const json = JSON.parse((await svc('tick', 'get', '2', '--json', '--grpc-url', url)).out) as Record<
      string,
      unknown
    > & { transactions: unknown[] };
    const viaRest = (await (await fetch(`${rest}/api/v1/tick/2`)).json()) as { tick: Record<string, unknown> };
    const { transactions, ...header } = json;
    expect(header).to.deep.equal(viaRest.tick);
    expect(transactions).to.be.an('array');
    expect(referenceVdfEngine().verify(parseRestTick(json))).to.equal(true);
    const missing = await svc('tick', 'get', '99999999', '--grpc-url', url);
    expect(missing.code).to.equal(1);
    expect(missing.err).to.contain('tick 99999999 does not exist');
    const zero = await svc('tick', 'get', '0', '--grpc-url', url);
    expect(zero.code).to.equal(2);
  });

  it('ticks watch prints one line per tick in order, or JSON lines, and stops after --count', async () => {
    const r = await svc('ticks', 'watch', '--from', '1', '--count', '4', '--grpc-url', url);
    expect(r.code, r.err).to.equal(0);
    const lines = r.out.split('\n');
    expect(lines).to.have.length(4);
    lines.forEach((l, i) =>
      expect(l).to.match(
        new RegExp(
          `^tick ${i + 1} {2}\\S+Z {2}\\d+ txs? {2}\\d+ iterations {2}batch [0-9a-f]{8}…[0-9a-f]{8} {2}output `,
        ),
      ),
    );
    const json = await svc('ticks', 'watch', '--from', '3', '--count', '2', '--json', '--grpc-url', url);
    expect(json.out.split('\n').map((l) => (JSON.parse(l) as { tick_number: number }).tick_number)).to.deep.equal([
      3, 4,
    ]);
    const live = await svc('ticks', 'watch', '--count', '2', '--grpc-url', url);
    const [first, second] = live.out.split('\n').map((l) => Number(/^tick (\d+)/.exec(l)![1]));
    expect(second).to.equal(first! + 1);
  });

  it('status reads SVC_GRPC_URL; an unreachable node is said plainly', async () => {
    // Two processes that change nothing on the node: side by side.
    const [r, down] = await Promise.all([
      svcProcess(['status', '--json'], { SVC_GRPC_URL: url }),
      svcProcess(['status'], { SVC_GRPC_URL: '127.0.0.1:1' }),
    ]);
    expect(r.code, r.err).to.equal(0);
    const s = JSON.parse(r.out) as { current_tick: number; total_transactions: number; uptime_seconds: number };
    expect(s.current_tick).to.be.greaterThan(0);
    expect(s.total_transactions).to.be.at.least(4);
    expect(down.code).to.equal(1);
    expect(down.err.trim()).to.equal(
      "svc status: cannot reach the node's gRPC face at 127.0.0.1:1 (connection refused): is the node running? Point --grpc-url or SVC_GRPC_URL at it",
    );
  });

  it('verify checks every tick from genesis with plain progress lines off a terminal', async () => {
    const height = Number(JSON.parse((await svc('status', '--json', '--grpc-url', url)).out).current_tick);
    // Three verifications that only read the node, each its own process: side by side.
    const [r, quiet, tty] = await Promise.all([
      svcProcess(['verify', '--to', String(height), '--grpc-url', url]),
      svcProcess(['verify', '--from', '2', '--to', '5', '--json', '--quiet', '--grpc-url', url]),
      // On a terminal (script(1) gives the command a real pty): the bar is drawn in place.
      new Promise<string>((resolve) => {
        const cmd = `${process.execPath} ${SVC_BIN} verify --to 20 --grpc-url ${url}`;
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
        void childOutput(child).then((r) => resolve(r.out));
      }),
    ]);
    expect(r.code, r.err).to.equal(0);
    expect(r.out.trim()).to.match(
      new RegExp(
        `^verified ticks 1\\.\\.${height} \\(${height} ticks, \\d+ transactions\\): VDF proofs, batch hashes, chained from genesis\\. .+ ticks/s on \\d+ threads?$`,
      ),
    );
    expect(r.err).to.not.contain('\r'); // no bar off a terminal
    const json = JSON.parse(quiet.out) as Record<string, unknown>;
    expect(json).to.include({ ok: true, from: 2, to: 5, verified: 4 });
    expect(tty).to.match(/\rverifying \[#+\] 100% {2}20\/20 ticks {2}[\d,]+ ticks\/s/);
    expect(tty).to.contain('verified ticks 1..20 (20 ticks');
    const ahead = await svc('verify', '--to', String(height + 1_000_000), '--grpc-url', url);
    expect(ahead.code).to.equal(1);
    expect(ahead.err).to.match(/tick \d+ does not exist yet: .* is at tick \d+/);
  });
});
