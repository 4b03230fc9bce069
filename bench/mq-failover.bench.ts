/**
 * bench:mq-failover (docs/operations.md "A JetStream cluster"): how long the real node stops
 * publishing when one server of a three-server NATS cluster (Debian's nats-server, loopback)
 * is killed with SIGKILL under a steady flow of orders, the stream at 3 replicas created by
 * the node (`--mq-replicas 3`). Each round kills, then restarts, in turn:
 *
 *   leader       the stream leader (moved off the node's own server first)
 *   follower     a replica that is neither the stream leader nor the node's server
 *   node-server  the server the node is connected to (the stream leader moved off it)
 *   meta-leader  the cluster's meta leader, whichever server that is
 *
 * For each kill (test/support/mq-failover.ts): when NATS answered for the stream again (the
 * new leader's election advisory; the kill itself if the leader survived), when the stream
 * stored its first message after the kill, and the gap between the last message before and
 * the first after. After each restart it checks that every replica holds the whole stream
 * (a restarted replica that came back short shows there), and at the end that the stream
 * holds the node's chain exactly once, in order.
 *
 * Options (env): MQ_FAILOVER_ROUNDS (3). Run alone: `node dist/bench/mq-failover.bench.js`;
 * ends with one JSON line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkStream } from '../test/support/jetstream.js';
import { describeFailover, measureFailover, NODE_CLIENT, type Failover } from '../test/support/mq-failover.js';
import { natsCluster, type NatsCluster } from '../test/support/nats-cluster.js';
import { metric, nodeChain, streamHoldsChain } from '../test/support/node-chain.js';
import { spawnNode } from '../test/support/node-process.js';
import { startOrderFlow } from '../test/support/order-flow.js';
import { until } from '../test/support/until.js';
import { median } from './support/stats.js';

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const ROUNDS = Number(process.env.MQ_FAILOVER_ROUNDS ?? 3);
const KINDS = ['leader', 'follower', 'node-server', 'meta-leader'] as const;
type Kind = (typeof KINDS)[number];

async function target(cluster: NatsCluster, kind: Kind): Promise<number> {
  const nodeServer = await until('the node connected', () => cluster.clientServer(NODE_CLIENT), 20_000);
  switch (kind) {
    case 'leader':
      return cluster.leaderNot(nodeServer);
    case 'follower': {
      const leader = await cluster.streamReady();
      return [0, 1, 2].find((i) => i !== leader && i !== nodeServer) ?? [0, 1, 2].find((i) => i !== leader)!;
    }
    case 'node-server':
      await cluster.leaderNot(nodeServer);
      return nodeServer;
    case 'meta-leader':
      return until('a meta leader', () => cluster.metaLeader(), 20_000);
  }
}

async function main(): Promise<void> {
  const cluster = await natsCluster();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-mq-failover-'));
  const node = await spawnNode(
    dir,
    [
      '--idle-tick-ms',
      '20',
      '--block-ms',
      '100',
      '--log-level',
      'debug',
      '--mq-url',
      cluster.urls,
      '--mq-replicas',
      '3',
    ],
    ['grpc', 'rest', 'dex', 'rpc'],
  );
  const rest = `http://${node.addresses.rest}`;
  const rpc = `http://${node.addresses.rpc}`;
  const rows: (Failover & { kind: Kind; shortReplicas: string[] })[] = [];
  try {
    const flow = await startOrderFlow(`http://${node.addresses.dex}`, { seed: 21, concurrency: 2, pauseMs: 10 });
    await cluster.streamReady('SVC', 3);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of KINDS) {
        const r = await measureFailover(cluster, await target(cluster, kind), rest);
        // Each replica's own copy, once the restarted one has caught up (or not).
        const last = (await cluster.replicaStates()).get(await cluster.streamReady())!.last_seq;
        const states = await until(
          'replicas at the leader',
          async () => {
            const s = await cluster.replicaStates();
            return [...s.values()].every((x) => x.last_seq >= last) ? s : undefined;
          },
          30_000,
        ).catch(() => cluster.replicaStates());
        const shortReplicas = [...states]
          .filter(([, s]) => s.first_seq !== 1 || s.messages !== s.last_seq)
          .map(([i, s]) => `n${i} ${JSON.stringify(s)}`);
        rows.push({ ...r, kind, shortReplicas });
        log(
          `round ${round} ${describeFailover(kind, r)}${shortReplicas.length ? `; SHORT replicas: ${shortReplicas.join(', ')}` : ''}`,
        );
      }
    }
    const placed = await flow.stop();
    const messages = await streamHoldsChain(rpc, cluster.urls, placed).catch(async (err: Error) => {
      const mq = (await (await fetch(`${rest}/metrics`)).text()).split('\n').filter((l) => l.startsWith('svc_mq_'));
      throw new Error(`${err.message}\n${mq.join('\n')}\nnode log:\n${node.stderr().slice(-4_000)}`);
    });
    checkStream(messages, await nodeChain(rpc));
    log(
      `stream checked: the node's whole chain once, in order (${placed} orders); svc_mq_outages_total ${await metric(rest, 'svc_mq_outages_total')}`,
    );
  } finally {
    node.child.kill('SIGKILL');
    await node.exited;
    await cluster.dispose();
    await rm(dir, { recursive: true, force: true });
  }
  const summary = Object.fromEntries(
    KINDS.map((kind) => {
      const of = rows.filter((r) => r.kind === kind);
      return [
        kind,
        {
          kills: of.length,
          answer_ms_median: median(of.map((r) => r.answerMs)),
          after_answer_ms_median: median(of.map((r) => r.afterAnswerMs)),
          after_answer_ms_max: Math.max(...of.map((r) => r.afterAnswerMs)),
          gap_ms_median: median(of.map((r) => r.gapMs)),
          gap_ms_max: Math.max(...of.map((r) => r.gapMs)),
          meta_leader_kills: of.filter((r) => r.wasMetaLeader).length,
          short_replicas: of.filter((r) => r.shortReplicas.length > 0).length,
        },
      ];
    }),
  );
  for (const [kind, s] of Object.entries(summary)) log(`${kind}: ${JSON.stringify(s)}`);
  console.log(
    JSON.stringify({
      bench: 'mq-failover',
      rounds: ROUNDS,
      loadavg: loadavg().map((l) => Math.round(l * 10) / 10),
      summary,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
