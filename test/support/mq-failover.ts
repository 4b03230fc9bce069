/**
 * One failover of a NATS cluster under a publishing node, timed from outside: kill -9 one
 * server, wait until the stream grows again, restart the server and wait for its replica.
 *
 *   answered   when NATS answers for the stream again: the new stream leader's election as
 *              it announces it ($JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.<stream>, seen by a
 *              client on a surviving server); the kill itself when the stream leader survived
 *   resumed    when the stream stored its first message after the kill (its leader's clock,
 *              this same machine)
 *
 * Meanwhile it samples the node's svc_mq_stream_available and svc_mq_connected. Used by
 * test/chain/mq/cluster.test.ts and bench/mq-failover.bench.ts.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { readStream } from './jetstream.js';
import type { NatsCluster } from './nats-cluster.js';
import { metric } from './node-chain.js';
import { until } from './until.js';

export interface Failover {
  killed: number;
  wasStreamLeader: boolean;
  wasMetaLeader: boolean;
  wasNodeServer: boolean;
  /** From the kill to NATS answering again (0 when the stream leader survived). */
  answerMs: number;
  /** From NATS answering again to the first message stored after the kill. */
  afterAnswerMs: number;
  /** From the last message stored before the kill to the first after it. */
  gapMs: number;
  /** Values of svc_mq_stream_available and svc_mq_connected sampled until publishing resumed. */
  availableSeen: Set<number>;
  connectedSeen: Set<number>;
}

/** The node's connection name (src/chain/mq/connection.ts). */
export const NODE_CLIENT = 'svc-node';

export async function measureFailover(
  cluster: NatsCluster,
  target: number,
  rest: string,
  stream = 'SVC',
): Promise<Failover> {
  await until(
    'the node publishing before the kill',
    async () => (await metric(rest, 'svc_mq_stream_available')) === 1 || undefined,
    20_000,
  );
  const wasStreamLeader = (await cluster.streamLeader(stream)) === target;
  const wasMetaLeader = (await cluster.metaLeader()) === target;
  const wasNodeServer = (await cluster.clientServer(NODE_CLIENT)) === target;
  const survivor = cluster.servers.find((s) => s.index !== target)!;
  const probe = await connect({ servers: survivor.url });
  let electedAt: number | undefined;
  const sub = probe.subscribe(`$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.${stream}`, {
    callback: () => {
      electedAt ??= Date.now();
    },
  });
  await probe.flush();
  const seqAtKill = await lastSeq(probe, stream);
  const availableSeen = new Set<number>();
  const connectedSeen = new Set<number>();

  const killedAt = Date.now();
  await cluster.kill(target);
  await until(
    'publishing to resume after the kill',
    async () => {
      availableSeen.add((await metric(rest, 'svc_mq_stream_available')) ?? -1);
      connectedSeen.add((await metric(rest, 'svc_mq_connected')) ?? -1);
      return (await lastSeq(probe, stream)) > seqAtKill + 5 || undefined;
    },
    60_000,
    100,
  );
  sub.unsubscribe();
  await probe.close();
  if (wasStreamLeader && electedAt === undefined)
    throw new Error('the stream leader died and no new one announced itself');
  const answeredAt = wasStreamLeader ? electedAt! : killedAt;

  // Back to three replicas before reading: creating the reader's consumer needs a meta leader.
  await cluster.start(target);
  await cluster.ready();
  await cluster.streamReady(stream, cluster.servers.length);
  const messages = await readStream(cluster.urls, stream);
  const before = messages.filter((m) => m.storedMs < killedAt).at(-1);
  const after = messages.find((m) => m.storedMs >= killedAt);
  if (!before || !after) throw new Error('no message stored before or after the kill');
  return {
    killed: target,
    wasStreamLeader,
    wasMetaLeader,
    wasNodeServer,
    answerMs: answeredAt - killedAt,
    afterAnswerMs: Math.max(0, after.storedMs - answeredAt),
    gapMs: after.storedMs - before.storedMs,
    availableSeen,
    connectedSeen,
  };
}

export function describeFailover(label: string, r: Failover): string {
  return (
    `failover ${label}: killed n${r.killed} (stream leader ${r.wasStreamLeader}, meta leader ${r.wasMetaLeader}, ` +
    `node's server ${r.wasNodeServer}): NATS answered after ${r.answerMs} ms, first publish ${r.afterAnswerMs} ms later, ` +
    `gap ${r.gapMs} ms`
  );
}

async function lastSeq(nc: NatsConnection, stream: string): Promise<number> {
  try {
    const jsm = await jetstreamManager(nc, { timeout: 500, checkAPI: false });
    return (await jsm.streams.info(stream)).state.last_seq;
  } catch {
    return 0;
  }
}
