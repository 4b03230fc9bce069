/**
 * Child process for test/sequencer/api/goaway.test.ts: a bare node:http2 server that closes each
 * connection after its 300th stream the way the gRPC port's reset guard does
 * (`announceClose`; replacing it with `session.close()`, the guard's way before 2026-11-28,
 * makes the test fail on Node 20), and cuts it 2 s later. Sends its port,
 * then a heartbeat every 100 ms over IPC: a heartbeat that stops means a frozen event loop.
 */
import { createServer } from 'node:http2';
import { announceClose } from '../../../src/wire/http2-guard.js';

const server = createServer({ settings: { maxConcurrentStreams: 1000 } });
server.on('session', (session) => {
  session.on('error', () => undefined);
  let streams = 0;
  session.on('stream', (stream) => {
    stream.on('error', () => undefined);
    stream.respond({ ':status': 200 });
    stream.end('x');
    if (++streams !== 300) return;
    announceClose(session);
    setTimeout(() => session.destroyed || session.destroy(), 2_000).unref();
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
setInterval(() => process.send!({ beat: true }), 100);
