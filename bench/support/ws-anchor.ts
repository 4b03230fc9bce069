/**
 * The fan-out floor (issue 25's anchor): a bare `ws` server that sends one 475-byte text
 * message to N clients, in its own process, with the clients in another. Run as a child of
 * bench/loaded.bench.ts in one of two roles:
 *
 *   server   listens on 127.0.0.1 port 0 and says `{port}`; on `{rounds}` (once its clients
 *            are connected) sends the message to every client `rounds` times, 10 ms apart,
 *            and answers `{result}`: its own CPU per round and per send
 *   clients  opens `clients` sockets (each from its own loopback address), says `{ready}`,
 *            counts what arrives and answers `{result}` when told to stop
 */
import { WebSocketServer, WebSocket } from 'ws';

export interface WsAnchorServerResult {
  rounds: number;
  clients: number;
  cpuUsPerRound: number;
  cpuUsPerSend: number;
}

const role = process.argv[2];

if (role === 'server') {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  const peers = new Set<WebSocket>();
  wss.on('connection', (ws) => (peers.add(ws), ws.on('close', () => peers.delete(ws))));
  wss.on('listening', () => process.send!({ port: (wss.address() as { port: number }).port }));
  process.on('message', async (m: { rounds?: number }) => {
    if (m.rounds === undefined) return;
    const message = Buffer.from(`{"type":"delta","channel":"book","pad":"${'x'.repeat(475 - 44)}"}`);
    let cpuUs = 0;
    for (let r = 0; r < m.rounds; r++) {
      const c0 = process.cpuUsage();
      for (const ws of peers) ws.send(message);
      const c = process.cpuUsage(c0);
      cpuUs += c.user + c.system;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const result: WsAnchorServerResult = {
      rounds: m.rounds,
      clients: peers.size,
      cpuUsPerRound: cpuUs / m.rounds,
      cpuUsPerSend: cpuUs / m.rounds / Math.max(1, peers.size),
    };
    process.send!({ result }, () => process.exit(0));
  });
} else if (role === 'clients') {
  process.on('message', async (job: { url?: string; clients?: number; stop?: true }) => {
    if (job.url === undefined || job.clients === undefined) return;
    let received = 0;
    const sockets = await Promise.all(
      Array.from(
        { length: job.clients },
        (_, n) =>
          new Promise<WebSocket>((resolve, reject) => {
            const ws = new WebSocket(job.url!, {
              perMessageDeflate: false,
              localAddress: `127.0.${3 + Math.floor(n / 250)}.${2 + (n % 250)}`,
            });
            ws.on('message', () => void received++);
            ws.once('open', () => resolve(ws));
            ws.once('error', reject);
          }),
      ),
    );
    process.send!({ ready: true });
    process.on('message', (m: { stop?: true }) => {
      if (!m.stop) return;
      for (const ws of sockets) ws.terminate();
      process.send!({ result: { received } }, () => process.exit(0));
    });
  });
}
