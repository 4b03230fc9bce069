/**
 * A real three-server NATS JetStream cluster on loopback, for tests and benchmarks: each
 * server on free client, cluster-route and monitoring ports, its JetStream store in its own
 * temp directory, all routed to each other (`--cluster_name`, `--routes`). One server can be
 * killed with SIGKILL (or stopped) and restarted on the same ports and store, so a test can
 * take the stream leader, a follower, the meta leader or the node's own server away.
 *
 * Leaders are read from the servers' monitoring endpoint (`/jsz`): the meta leader from any
 * live server, a stream's leader from the stream's own report. It does not create streams:
 * the code under test does.
 */
import { connect } from '@nats-io/transport-node';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NATS_SERVER_BIN } from './nats-server.js';

export interface ClusterServer {
  index: number;
  name: string; // n0, n1, n2: the server_name JetStream reports as leader
  port: number;
  url: string; // nats://127.0.0.1:PORT
  storeDir: string;
  running(): boolean;
  log(): string;
}

export interface NatsCluster {
  servers: ClusterServer[];
  /** Every server's client URL, comma-separated: what --mq-url takes. */
  urls: string;
  /** Start (again) server i on its ports and store; resolves once it logs "Server is ready". */
  start(i: number): Promise<void>;
  /** SIGKILL server i and wait for its exit. */
  kill(i: number): Promise<void>;
  /** SIGTERM server i and wait for its exit. */
  stop(i: number): Promise<void>;
  /** Index of the JetStream meta leader as a live server reports it, or undefined (none yet). */
  metaLeader(): Promise<number | undefined>;
  /** Index of the stream's leader as a live server reports it, or undefined (none, or no stream). */
  streamLeader(stream?: string): Promise<number | undefined>;
  /**
   * What each running server's own replica of the stream holds (its first and last sequence
   * and message count), by server index: a replica that came back short shows here.
   */
  replicaStates(stream?: string): Promise<Map<number, ReplicaState>>;
  /**
   * Move the stream's leadership off server `avoid` (stream leader step-downs until another
   * server leads it; each hands it to a random current replica) and return the new leader.
   */
  leaderNot(avoid: number, stream?: string): Promise<number>;
  /** Index of the running server holding a client connection of that name (the node's: 'svc-node'). */
  clientServer(name: string): Promise<number | undefined>;
  /** Wait until every running server is routed and a meta leader is elected. */
  ready(timeoutMs?: number): Promise<void>;
  /** Wait until the stream has a leader and `replicas` current replicas (all running servers). */
  streamReady(stream?: string, replicas?: number, timeoutMs?: number): Promise<number>;
  /** Kill every server and remove the stores. */
  dispose(): Promise<void>;
}

export interface ReplicaState {
  messages: number;
  first_seq: number;
  last_seq: number;
}

interface Member extends ClusterServer {
  routePort: number;
  httpPort: number;
  child?: ChildProcess;
  exited: Promise<void>;
  output: string;
}

interface Jsz {
  meta_cluster?: { leader?: string; cluster_size?: number };
  account_details?: { stream_detail?: StreamDetail[] }[];
}

interface StreamDetail {
  name: string;
  state?: ReplicaState;
  cluster?: { leader?: string; replicas?: { name: string; current: boolean; offline?: boolean }[] };
}

/** Three servers (or `size`) named n0.., all started unless `start: false`. */
export async function natsCluster(
  options: { size?: number; start?: boolean; name?: string } = {},
): Promise<NatsCluster> {
  const size = options.size ?? 3;
  const clusterName = options.name ?? 'svc-test';
  const members: Member[] = [];
  for (let i = 0; i < size; i++) {
    const port = await freePort();
    members.push({
      index: i,
      name: `n${i}`,
      port,
      url: `nats://127.0.0.1:${port}`,
      routePort: await freePort(),
      httpPort: await freePort(),
      storeDir: await mkdtemp(join(tmpdir(), `svc-nats-${i}-`)),
      exited: Promise.resolve(),
      output: '',
      running() {
        return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
      },
      log() {
        return this.output;
      },
    });
  }
  const routes = members.map((m) => `nats://127.0.0.1:${m.routePort}`).join(',');

  const end = async (m: Member, signal: NodeJS.Signals): Promise<void> => {
    if (m.running()) m.child!.kill(signal);
    await m.exited;
    m.child = undefined;
  };

  const jsz = async (m: Member): Promise<Jsz | undefined> => {
    if (!m.running()) return undefined;
    try {
      const res = await fetch(`http://127.0.0.1:${m.httpPort}/jsz?accounts=true&streams=true`, {
        signal: AbortSignal.timeout(1_000),
      });
      return res.ok ? ((await res.json()) as Jsz) : undefined;
    } catch {
      return undefined;
    }
  };

  const indexOf = (name: string | undefined) => {
    const i = members.findIndex((m) => m.name === name);
    return i < 0 ? undefined : i;
  };

  const cluster: NatsCluster = {
    servers: members,
    urls: members.map((m) => m.url).join(','),
    async start(i) {
      const m = members[i]!;
      if (m.running()) return;
      const args = [
        '-js',
        '-a',
        '127.0.0.1',
        '-p',
        String(m.port),
        '-m',
        String(m.httpPort),
        '-sd',
        m.storeDir,
        '-n',
        m.name,
        '--cluster_name',
        clusterName,
        '--cluster',
        `nats://127.0.0.1:${m.routePort}`,
        '--routes',
        routes,
      ];
      const proc = spawn(NATS_SERVER_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      m.child = proc;
      m.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`nats-server ${m.name} did not become ready in 15 s:\n${m.output}`)),
          15_000,
        );
        const onData = (d: Buffer) => {
          m.output += d.toString();
          if (m.output.length > 200_000) m.output = m.output.slice(-100_000);
          if (m.output.includes('Server is ready')) {
            clearTimeout(timer);
            resolve();
          }
        };
        proc.stdout!.on('data', onData);
        proc.stderr!.on('data', onData);
        proc.once('error', (err) => {
          clearTimeout(timer);
          reject(new Error(`cannot run ${NATS_SERVER_BIN} (apt-get install nats-server): ${err.message}`));
        });
        proc.once('exit', (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`nats-server ${m.name} exited (${code ?? signal}) before it was ready:\n${m.output}`));
        });
      });
      m.output = m.output.replace(/Server is ready/g, 'Server was ready');
    },
    kill: (i) => end(members[i]!, 'SIGKILL'),
    stop: (i) => end(members[i]!, 'SIGTERM'),
    async metaLeader() {
      for (const m of members) {
        const leader = indexOf((await jsz(m))?.meta_cluster?.leader);
        if (leader !== undefined && members[leader]!.running()) return leader;
      }
      return undefined;
    },
    async streamLeader(stream = 'SVC') {
      for (const m of members) {
        const detail = streamDetail(await jsz(m), stream);
        const leader = indexOf(detail?.cluster?.leader);
        if (leader !== undefined && members[leader]!.running()) return leader;
      }
      return undefined;
    },
    async replicaStates(stream = 'SVC') {
      const out = new Map<number, ReplicaState>();
      for (const m of members) {
        const state = streamDetail(await jsz(m), stream)?.state;
        if (state) out.set(m.index, { messages: state.messages, first_seq: state.first_seq, last_seq: state.last_seq });
      }
      return out;
    },
    async leaderNot(avoid, stream = 'SVC') {
      const live = members.find((m) => m.running() && m.index !== avoid)!;
      const nc = await connect({ servers: live.url });
      try {
        for (let attempt = 0; attempt < 10; attempt++) {
          const leader = await cluster.streamReady(stream, size);
          if (leader !== avoid) return leader;
          await nc
            .request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, undefined, { timeout: 5_000 })
            .catch(() => undefined);
          await until(`a new leader of ${stream}`, 30_000, async () => (await cluster.streamLeader(stream)) !== leader);
        }
        throw new Error(`stream ${stream} kept its leader on n${avoid} through 10 step-downs`);
      } finally {
        await nc.close();
      }
    },
    async clientServer(name) {
      for (const m of members) {
        if (!m.running()) continue;
        try {
          const res = await fetch(`http://127.0.0.1:${m.httpPort}/connz?limit=1024`, {
            signal: AbortSignal.timeout(1_000),
          });
          const connz = (await res.json()) as { connections?: { name?: string }[] };
          if ((connz.connections ?? []).some((c) => c.name === name)) return m.index;
        } catch {
          // down or busy: ask the next
        }
      }
      return undefined;
    },
    async ready(timeoutMs = 30_000) {
      const running = members.filter((m) => m.running());
      await until('the NATS cluster to elect a meta leader', timeoutMs, async () => {
        for (const m of running) {
          const meta = (await jsz(m))?.meta_cluster;
          if (!meta?.leader || indexOf(meta.leader) === undefined || !members[indexOf(meta.leader)!]!.running())
            return false;
        }
        return true;
      });
    },
    async streamReady(stream = 'SVC', replicas = size, timeoutMs = 30_000) {
      let leader: number | undefined;
      await until(`stream ${stream} to have a leader and ${replicas} current replicas`, timeoutMs, async () => {
        leader = await cluster.streamLeader(stream);
        if (leader === undefined) return false;
        const detail = streamDetail(await jsz(members[leader]!), stream);
        const current = (detail?.cluster?.replicas ?? []).filter((r) => r.current && !r.offline).length + 1;
        return current >= replicas;
      });
      return leader!;
    },
    async dispose() {
      for (const m of members) await end(m, 'SIGKILL');
      for (const m of members) await rm(m.storeDir, { recursive: true, force: true });
    },
  };
  if (options.start !== false) {
    await Promise.all(members.map((_, i) => cluster.start(i)));
    await cluster.ready();
  }
  return cluster;
}

function streamDetail(j: Jsz | undefined, stream: string): StreamDetail | undefined {
  for (const a of j?.account_details ?? []) for (const s of a.stream_detail ?? []) if (s.name === stream) return s;
  return undefined;
}

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
