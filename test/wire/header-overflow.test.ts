/**
 * A request head past the header limit is answered 431 even while the client is still
 * sending it (src/wire/client-errors.ts): the server half-closes after the answer and drains
 * what still comes, so the client reads the 431 instead of a TCP reset. The client here
 * sends request lines of 40 KB to 4 MB in one write, so that most of it is still coming
 * when the server answers: the case that made test/e2e/tx-proof.test.ts flaky (40 KB) with
 * Node's default handling, which fails this test every time at 1 MB.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrors } from '../../src/wire/index.js';

/**
 * Send `GET /<size bytes>` at once: the server meets the limit in its first reads, while
 * most of the line is still on its way (with Node's default handling, the socket is then
 * destroyed with unread bytes, and the kernel resets the connection). What came back and
 * whether the socket errored.
 */
function hugeRequest(port: number, size: number): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), ...(error ? { error } : {}) }));
    socket.end(`GET /${'a'.repeat(size)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

describe('hostile: a request head past the header limit', function () {
  this.timeout(30_000);
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((_req, res) => res.end('ok'));
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is answered 431 and closed without a reset, though the client goes on sending', async () => {
    for (const [i, size] of [40_000, 1_000_000, 4_000_000, 1_000_000, 4_000_000].entries()) {
      const r = await hugeRequest(port, size);
      expect(r.error, `try ${i}`).to.equal(undefined);
      expect(r.text, `try ${i}`).to.match(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(r.text).to.include('Connection: close');
    }
  });

  it('other unparsable heads get 400, and the server keeps serving', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.end('NOT A REQUEST\r\n\r\n');
    });
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const ok = await fetch(`http://127.0.0.1:${port}/`);
    expect(await ok.text()).to.equal('ok');
  });
});
