/**
 * Child process: `clients` WebSocket connections to WS /ws/blocks; for every block message
 * each client receives, the block height and the wall-clock receive time in µs. Reports
 * after `seconds`.
 */
import WebSocket from 'ws';

export interface WsJob {
  url: string;
  clients: number;
  seconds: number;
}

export type WsSample = [height: number, recvUs: number];

const nowUs = () => (performance.timeOrigin + performance.now()) * 1000;

process.on('message', async (job: WsJob) => {
  const samples: WsSample[] = [];
  const sockets: WebSocket[] = [];
  for (let i = 0; i < job.clients; i += 100) {
    await Promise.all(
      Array.from(
        { length: Math.min(100, job.clients - i) },
        () =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(job.url, { perMessageDeflate: false });
            ws.on('message', (data: Buffer) => {
              const t = nowUs();
              // The height is the first number of the message: {"block":{"height":N,...
              const m = /"height":(\d+)/.exec(data.toString('latin1', 0, 64));
              if (m) samples.push([Number(m[1]), t]);
            });
            ws.once('open', () => resolve());
            ws.once('error', reject);
            sockets.push(ws);
          }),
      ),
    );
  }
  process.send!({ ready: true });
  setTimeout(() => {
    for (const ws of sockets) ws.terminate();
    process.send!({ result: samples }, () => process.exit(0));
  }, job.seconds * 1000);
});
