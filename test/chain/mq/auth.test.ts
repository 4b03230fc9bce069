/**
 * The JetStream producer of the real `svc node` against a real nats-server that demands
 * a user and a password (`--user/--pass`), as an operator runs it:
 *  - `--mq-url nats://user:password@host:port` connects (the credentials go to the client
 *    as options; left in the URL, the server answers "Authorization Violation");
 *  - right after a restart, `svc_mq_published_height` is the height of the last block the
 *    stream holds (read back from the stream), not 0, before anything new is published:
 *    on the node's own database, and on a fresh one that waits until it has stored as far.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBlock, readStream } from '../../support/jetstream.js';
import { natsServer, type NatsAuth, type NatsServer } from '../../support/nats-server.js';
import { spawnNode, type NodeProcess } from '../../support/node-process.js';
import { startOrderFlow } from '../../support/order-flow.js';
import { until } from '../../support/until.js';

const FACES = ['grpc', 'rest', 'dex', 'rpc'];
const NODE_ARGS = ['--idle-tick-ms', '20', '--block-ms', '100'];
// A password with the characters a URL must escape (%40 and %3A in the URL).
const AUTH: NatsAuth = { user: 'svc', pass: 'p@ss:w0rd' };

/** Poll `check` (errors count as not yet) until true, at most `ms`. */
function waitFor(what: string, check: () => Promise<boolean>, ms: number): Promise<true> {
  return until(what, async () => ((await check().catch(() => false)) ? true : undefined), ms);
}

async function metrics(rest: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${rest}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^(svc_mq_\w+) (\S+)$/gm)) out.set(m[1]!, Number(m[2]));
  return out;
}

describe('end to end: the JetStream producer with a NATS user and password', function () {
  this.timeout(60_000);
  let dir: string;
  let node: NodeProcess | undefined;
  let nats: NatsServer | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-mq-auth-'));
  });
  afterEach(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    node = undefined;
    await nats?.dispose();
    nats = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('connects with nats://user:password@host:port, and reports the stream height right after a restart', async () => {
    nats = await natsServer({ auth: AUTH });
    const mqUrl = nats.authUrl!;
    node = await spawnNode(dir, [...NODE_ARGS, '--mq-url', mqUrl, '--log-level', 'info'], FACES);
    const flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 1, concurrency: 2 });
    await waitFor(
      'a block in the stream',
      async () => (await readStream(nats!.url, 'SVC', AUTH)).some(isBlock),
      15_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; node log:\n${node!.stderr().slice(-2_000)}`);
    });
    await flow.stop();
    const rpc = `http://${node.addresses.rpc}`;
    let height = 0;
    await waitFor(
      'the stream to end with the latest block',
      async () => {
        height = ((await (await fetch(`${rpc}/status`)).json()) as { block_height: number }).block_height;
        const last = (await readStream(nats!.url, 'SVC', AUTH)).at(-1);
        return last !== undefined && isBlock(last) && last.msgId === String(height);
      },
      15_000,
    );
    expect(node.stderr()).not.to.include('p@ss:w0rd').and.not.to.include('p%40ss');

    // Restarted on its database, then on a fresh one (a node that has not stored as far as
    // the stream: it waits). Nothing new is published (no orders), so the height can only
    // come from reading the stream back.
    for (const db of [dir, join(dir, 'fresh')]) {
      node.child.kill('SIGKILL');
      await node.exited;
      node = await spawnNode(db, [...NODE_ARGS, '--mq-url', mqUrl, '--log-level', 'info'], FACES);
      const rest = `http://${node.addresses.rest}`;
      let seen = new Map<string, number>();
      await waitFor(
        "svc_mq_published_height to be the stream's last block",
        async () => (seen = await metrics(rest)).get('svc_mq_published_height') === height,
        10_000,
      ).catch(() => {
        throw new Error(
          `svc_mq_published_height ${seen.get('svc_mq_published_height')} (connected ${seen.get('svc_mq_connected')}), the stream holds block ${height}; node log:\n${node!.stderr().slice(-1_500)}`,
        );
      });
      expect(seen.get('svc_mq_connected')).to.equal(1);
      expect(seen.get('svc_mq_lag_blocks')).to.equal(0);
    }
    expect(node.stderr()).to.include(`the stream holds block ${height}`);
  });
});
