/**
 * Child process for test/sequencer/api/reset-burst.test.ts: a bare node:http2 server with
 * the gRPC port's reset guard (guardHttp2Server). A request for `/` is answered at once
 * (HEADERS with END_STREAM, as a refusal is); StreamTicks gets its response headers and then
 * 100 bytes every millisecond (a live server stream); any other path is held open (a call in
 * flight). Sends its port over IPC, and each warning the guard logs as { warned }.
 */
import { createServer } from 'node:http2';
import pino from 'pino';
import { guardHttp2Server } from '../../../src/wire/index.js';

const STREAM_TICKS = '/svc.sequencer.v1.SequencerService/StreamTicks';
const TICK = Buffer.alloc(100, 7);

const logger = pino({ level: 'warn' }, { write: (line: string) => process.send!({ warned: line }) });
const server = createServer({ settings: { maxConcurrentStreams: 2_000 } });
server.on('session', (session) => session.on('error', () => undefined));
server.on('stream', (stream, headers) => {
  stream.on('error', () => undefined);
  if (headers[':path'] === '/') stream.respond({ ':status': 200 }, { endStream: true });
  else if (headers[':path'] === STREAM_TICKS) {
    stream.respond({ ':status': 200 });
    const timer = setInterval(() => (stream.closed ? clearInterval(timer) : stream.write(TICK)), 1);
  }
});
guardHttp2Server(server, logger);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
