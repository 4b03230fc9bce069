/**
 * The no-op order server of `npm run bench:dex` (the yardstick beside the gateways):
 *   node dist/bench/dex-noop.js <processes>
 * node:http on 127.0.0.1 port 0, POST /orders reads the body, JSON.parses it and answers a
 * fixed body of an order answer's size; with <processes> > 1 as node:cluster workers
 * sharing the port, like the gateways. Prints `listening <port>` once all listen, and
 * `cpu <ms>` (all processes, user + system) on a line when stdin closes, then exits.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { processCpuMs } from './support/cpu.js';

const FIXED = JSON.stringify({
  ok: true,
  data: {
    receipt: {
      order_id: '1',
      owner: '11111111111111111111111111111111',
      timestamp_ms: 0,
      sequencer_id: 'x'.repeat(16),
      merkle_root: '0'.repeat(64),
      sequencer_signature: '0'.repeat(128),
      tick_number: 0,
      continuum_sequence: '0',
      tx_hash: '0'.repeat(64),
    },
    status: 'Open',
    filled_quantity: '0',
    remaining_quantity: '1',
    trades: [],
  },
});

function serve(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(FIXED),
        });
        res.end(FIXED);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.NOOP_PORT ?? 0), '127.0.0.1', () => {
    if (!cluster.isWorker) process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
  });
}

const procs = Number(process.argv[2] ?? 1);
if (cluster.isWorker) serve();
else if (procs <= 1) {
  serve();
  process.stdin.on('end', () => {
    process.stdout.write(`cpu ${processCpuMs(process.pid)}\n`);
    process.exit(0);
  });
  process.stdin.resume();
} else {
  let listening = 0;
  let port = 0;
  const workers = Array.from({ length: procs }, () => cluster.fork());
  for (const w of workers) {
    w.on('listening', (a: { port: number }) => {
      port = a.port;
      if (++listening === procs) process.stdout.write(`listening ${port}\n`);
    });
  }
  process.stdin.on('end', () => {
    let ms = processCpuMs(process.pid);
    for (const w of workers) ms += processCpuMs(w.process.pid!);
    process.stdout.write(`cpu ${ms}\n`);
    for (const w of workers) w.process.kill('SIGKILL');
    process.exit(0);
  });
  process.stdin.resume();
}
