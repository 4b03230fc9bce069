/**
 * Start-up as a user meets it, through the real `svc node` binary: a --db-path held by a
 * running node, a port another node holds, a negative --retain-ticks. Each stops the node
 * with one line naming what, where and which flag, and no `listening` line is printed
 * before it. A node that starts logs its bound addresses in "node started".
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SVC_BIN, spawnNode, type NodeProcess } from '../support/node-process.js';
import { childOutput } from '../support/child-output.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `svc node <args>` to completion (it must exit by itself). */
function runNode(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVC_BIN, 'node', '--log-level', 'warn', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    void childOutput(child).then(({ code, out, err }) => {
      clearTimeout(timer);
      resolve({ code, stdout: out, stderr: err });
    });
  });
}

/** The last line on stderr: the human one, after any JSON log lines. */
function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

describe('end to end: start-up errors a user can act on', function () {
  this.timeout(60_000);
  let dir: string;
  let running: NodeProcess;
  // One order book gateway each (the default is the cores): these nodes start in parallel.
  const free = [
    '--grpc-addr',
    '127.0.0.1:0',
    '--rest-addr',
    '127.0.0.1:0',
    '--dex-addr',
    '127.0.0.1:0',
    '--rpc-addr',
    '127.0.0.1:0',
    '--gateways',
    '1',
  ];
  const faces = ['grpc', 'rest', 'dex'] as const;
  // The failing starts are independent: run them side by side, once the first node is up.
  const runs = new Map<string, Promise<Run>>();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-startup-'));
    running = await spawnNode(join(dir, 'first'), ['--log-level', 'info'], ['grpc', 'rest', 'dex']);
    runs.set('db', runNode([...free, '--db-path', join(dir, 'first')]));
    for (const face of faces) {
      const args = free.map((a, i) => (free[i - 1] === `--${face}-addr` ? running.addresses[face]! : a));
      runs.set(face, runNode([...args, '--db-path', join(dir, `port-${face}`)]));
    }
    runs.set('retain', runNode([...free, '--db-path', join(dir, 'bad'), '--retain-ticks', '-5']));
  });
  after(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('"node started" carries the bound addresses, not the configured port 0', () => {
    const started = running
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; addresses?: Record<string, string> })
      .find((l) => l.msg === 'node started');
    expect(started, running.stderr()).to.not.equal(undefined);
    expect(started!.addresses).to.deep.equal(running.addresses);
    expect(started!.addresses!.grpc).to.match(/^127\.0\.0\.1:[1-9]\d*$/);
  });

  it('a --db-path held by another node names the path and says another node holds it', async () => {
    const path = join(dir, 'first');
    const r = await runs.get('db')!;
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(lastLine(r.stderr)).to.equal(
      `svc node: cannot open the database in --db-path ${path}: another svc node is using it (the lock ${path}/leveldb/LOCK is held). Stop that node, or give this one its own --db-path.`,
    );
  });

  for (const face of faces) {
    it(`a ${face} port in use names the face, the address and the flag, before any listening line`, async () => {
      const taken = running.addresses[face]!;
      const r = await runs.get(face)!;
      expect(r.code).to.equal(1);
      expect(r.stdout, 'no listening line').to.equal('');
      expect(lastLine(r.stderr)).to.equal(
        `svc node: the ${face} face cannot listen on ${taken}: the address is already in use (another svc node or program holds the port). Stop it, or choose another with --${face}-addr (or SVC_${face.toUpperCase()}_ADDR); port 0 picks a free one.`,
      );
    });
  }

  it('--retain-ticks -5 says what is wrong with the value', async () => {
    const r = await runs.get('retain')!;
    expect(r.code).to.equal(2);
    expect(r.stderr.trim().split('\n')[0]).to.equal(
      'svc node: invalid --retain-ticks: -5 is out of range: expected a whole number from 1 to 100,000,000',
    );
  });
});
