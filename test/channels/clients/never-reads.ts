/**
 * Child process for test/channels/slow-client.test.ts: a channels client that subscribes to
 * blocks and then never reads. It speaks WebSocket by hand on a raw TCP socket (the upgrade
 * request, one masked text frame) and pauses the socket, so the node's writes pile up in the
 * kernel and then in the node's send queue. Reports `{ready}`; the parent kills it.
 */
import { connect } from 'node:net';

// A paused socket does not keep the event loop alive: this does, until the parent kills us.
setInterval(() => undefined, 60_000);

process.once('message', (job: { host: string; port: number; path: string }) => {
  const socket = connect(job.port, job.host, () => {
    socket.write(
      `GET ${job.path} HTTP/1.1\r\nHost: ${job.host}:${job.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const body = Buffer.from(JSON.stringify({ op: 'subscribe', id: 1, channel: 'blocks' }));
    // FIN + text, masked with the all-zero key (masking with zeros leaves the payload as is).
    socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | body.length, 0, 0, 0, 0]), body]));
    // Read the upgrade answer, then never read again.
    socket.once('data', () => {
      socket.pause();
      process.send!({ ready: true });
    });
  });
  socket.on('error', () => undefined);
});
