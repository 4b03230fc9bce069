/**
 * Child process of bench/channels.bench.ts: `clients` channels sockets, each from its own
 * loopback address (127.0.0.2.., so a node's per-address socket limit is not what is
 * measured), subscribed to one market's book channel. For every delta: its tick and the
 * wall-clock receipt time in µs (one sample per socket and delta), and the sequence gaps seen.
 * Sends `{ready}` once every socket has its snapshot, `{result}` when told to stop.
 */
import WebSocket from 'ws';

export interface BookClientsJob {
  url: string;
  marketId: string;
  clients: number;
  firstAddress: number; // index of this child's first loopback address
}

export interface BookClientsResult {
  samples: Array<[tick: number, recvUs: number]>;
  deltas: number;
  gaps: number;
  closed: number;
  /** This child's own CPU (ms) while it ran. */
  cpuMs: number;
}

const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

process.on('message', async (job: BookClientsJob | { stop: true }) => {
  if ('stop' in job) return;
  const cpu0 = process.cpuUsage();
  const samples: BookClientsResult['samples'] = [];
  let deltas = 0;
  let gaps = 0;
  let closed = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < job.clients; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, job.clients - i) }, (_, k) => {
        const n = job.firstAddress + i + k;
        const localAddress = `127.0.${1 + Math.floor(n / 250)}.${2 + (n % 250)}`;
        return new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(job.url, { perMessageDeflate: false, localAddress });
          let seq = -1;
          ws.on('message', (data: Buffer) => {
            const t = nowUs();
            // {"type":"delta","channel":"book","market_id":"<36>","seq":N,"tick":T,...
            const head = data.toString('latin1', 0, 120);
            if (head.startsWith('{"type":"delta"')) {
              const m = /"seq":(\d+),"tick":(\d+)(?:,"first_seq":(\d+))?/.exec(head)!;
              const s = Number(m[1]);
              // first_seq: several deltas folded into one for a client that was behind
              if (seq >= 0 && Number(m[3] ?? s) !== seq + 1) gaps++;
              seq = s;
              deltas++;
              samples.push([Number(m[2]), t]);
            } else if (head.startsWith('{"type":"snapshot"')) {
              seq = Number(/"seq":(\d+)/.exec(head)![1]);
              resolve();
            }
          });
          ws.once('open', () =>
            ws.send(JSON.stringify({ op: 'subscribe', id: 1, channel: 'book', market_id: job.marketId })),
          );
          ws.once('error', reject);
          ws.once('close', () => closed++);
          sockets.push(ws);
        });
      }),
    );
  }
  process.send!({ ready: true });
  process.on('message', (m: { stop?: true }) => {
    if (!m.stop) return;
    const cpu = process.cpuUsage(cpu0);
    const result: BookClientsResult = { samples, deltas, gaps, closed, cpuMs: (cpu.user + cpu.system) / 1000 };
    for (const ws of sockets) ws.terminate();
    process.send!({ result }, () => process.exit(0));
  });
});
