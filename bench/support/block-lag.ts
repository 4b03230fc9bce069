/**
 * Child process of bench/loaded.bench.ts: follows the blocks channel (WS /ws) of a leader
 * and of its full node at once and notes when each block height arrives from each; the
 * follower's block lag is the difference per height (both read by this one process, one
 * clock). Sends `{ready}` once both are subscribed, `{result}` when told to stop.
 */
import WebSocket from 'ws';

export interface BlockLagJob {
  leader: string; // ws://host:port/ws
  follower: string;
}

export interface BlockLagResult {
  lagMs: number[];
  leaderBlocks: number;
  followerBlocks: number;
  cpuMs: number;
}

function follow(url: string, seen: Map<number, number>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (data: Buffer) => {
      const at = performance.now();
      const head = data.toString('latin1', 0, 80);
      if (head.startsWith('{"type":"block"')) {
        const m = /"height":(\d+)/.exec(head);
        if (m) seen.set(Number(m[1]), at);
      } else if (head.startsWith('{"type":"subscribed"')) resolve(ws);
    });
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 1, channel: 'blocks' })));
    ws.once('error', reject);
  });
}

process.on('message', async (job: BlockLagJob | { stop: true }) => {
  if ('stop' in job) return;
  const cpu0 = process.cpuUsage();
  const leader = new Map<number, number>();
  const follower = new Map<number, number>();
  const sockets = await Promise.all([follow(job.leader, leader), follow(job.follower, follower)]);
  process.send!({ ready: true });
  process.on('message', (m: { stop?: true }) => {
    if (!m.stop) return;
    const lagMs: number[] = [];
    for (const [height, at] of leader) {
      const f = follower.get(height);
      if (f !== undefined) lagMs.push(f - at);
    }
    for (const ws of sockets) ws.terminate();
    const cpu = process.cpuUsage(cpu0);
    const result: BlockLagResult = {
      lagMs,
      leaderBlocks: leader.size,
      followerBlocks: follower.size,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
    process.send!({ result }, () => process.exit(0));
  });
});
