/**
 * How a node:http server answers a request it cannot parse (its 'clientError'): the status
 * Node itself would send (431 for a request head past the header limit, 408 for a head that
 * came too slowly, 400 otherwise), with `Connection: close`, then a half-close; the socket
 * keeps reading (and dropping) what the client still sends until the client closes or
 * LINGER_MS pass, and only then is destroyed.
 *
 * Why: Node's default answer destroys the socket right after writing. A client still
 * sending a long request line (a 40 KB URL) then has unread bytes in the server's receive
 * buffer, the kernel answers them with a TCP reset, and the client sees ECONNRESET instead
 * of the 431 (a flaky test/e2e/tx-proof.test.ts). Draining before closing lets the answer
 * arrive. It does not read a request body: there is none for a request whose head failed.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused client may keep sending before its socket is destroyed. */
export const LINGER_MS = 2000;

/** Install the answer on `server` (replaces Node's default clientError handling). */
export function answerClientErrors(server: Server): void {
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports every later piece of the same bad head again: answered once, drained.
    if (answered.has(socket)) return;
    answered.add(socket);
    // As Node's default: nothing to answer on a reset socket or over a response already started.
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
      socket.destroy();
      return;
    }
    const status = statusOf(err.code);
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.on('data', drop);
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    socket.once('error', () => socket.destroy());
    socket.resume();
  });
}

function statusOf(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') return '431 Request Header Fields Too Large';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return '408 Request Timeout';
  return '400 Bad Request';
}

function drop(): void {}
