/**
 * HTTP/2 bounds of a grpc-js server: the node's gRPC port and the gRPC order entry in the
 * gateway processes (docs/api.md "Overload and HTTP/2").
 *
 * - Streams per connection: at most MAX_CONCURRENT_STREAMS at once (the SETTINGS frame);
 *   a client wanting more holds them itself, so no connection can park tens of thousands
 *   of requests in the node.
 * - Client cancels: nghttp2 (under Node's http2) answers a connection that reset more
 *   than 1,000 streams (refilled at 33 a second) with GOAWAY INTERNAL_ERROR, which drops
 *   every request in flight on it without an answer and without a word in the node's log
 *   (Node 20 cannot change that limit). This guard counts the streams each connection's
 *   client reset with the same budget, and before the budget runs out closes the connection
 *   gracefully: GOAWAY NO_ERROR with the highest stream id (RFC 9113 section 6.8's notice of
 *   a graceful shutdown), so every request the client sent before it read the GOAWAY is
 *   served and answered, new ones go to a new connection (grpc-js clients reconnect by
 *   themselves), and it says so in the log. Its server streams (StreamTicks, StreamTx),
 *   which never end by themselves, are reset at once (their clients resume on a new
 *   connection); the client closes the connection once its calls are answered, and one
 *   still open CLOSE_GRACE_MS later is cut. The guard sees only the resets of streams
 *   still open (a stream that closes with CANCEL); nghttp2 also counts a reset that
 *   arrives after the stream's answer went out (a client cancelling a call the node had
 *   just refused), which Node does not report, so the guard closes with RESET_RESERVE of the
 *   budget left: up to that many such late resets can come on top of the ones it counts
 *   (test/sequencer/api/reset-burst.test.ts). nghttp2 stops counting once a GOAWAY is
 *   submitted (Node 20's 1.61 and Node 24's 1.70 alike).
 *
 *   What the guard sends (the GOAWAY, the resets of its server streams) it sends from the
 *   next turn of the event loop, never from the 'close' event it counts: that event runs
 *   inside nghttp2's receive callback (nghttp2_session_mem_recv), and a RST_STREAM Node
 *   submits there goes straight to nghttp2_session_mem_send, which nghttp2 forbids inside its
 *   callbacks. Node 20.20 does so whenever a write was already scheduled on the connection
 *   (Node's own guard, a pending list for CANCEL resets, is skipped then), and under load
 *   that send once looped in Http2Session::SendPendingData for good, the node thread at full
 *   CPU answering nobody (test/sequencer/api/hostile-streams.test.ts, 1 run in 8 on a loaded
 *   2-core machine; nodejs/node#64166 later made Node defer such resets itself).
 *
 *   Why not `session.close()`: it marks the session closed in Node's JavaScript, and Node
 *   then refuses each stream the client opens before it reads the GOAWAY with RST_STREAM
 *   REFUSED_STREAM from inside nghttp2's receive callback, a re-entrant send that can free
 *   the stream under nghttp2. On Node 20.20 a server doing so under such a client aborted
 *   with a corrupted heap within seconds (test/sequencer/api/goaway.test.ts), and the node, which
 *   did so until 2026-11-28, stopped answering for minutes in some full test runs. A GOAWAY
 *   alone leaves the session open in JavaScript, so no stream takes that path.
 *
 * grpc-js does not expose its HTTP/2 sessions: the guard reaches them through the server's
 * `http2Servers` map (grpc-js 1.14) and says so in the log if that is gone.
 */
import {
  constants,
  type Http2Server,
  type Http2Session,
  type IncomingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Server } from '@grpc/grpc-js';
import type { Logger } from 'pino';

/** SETTINGS_MAX_CONCURRENT_STREAMS of the gRPC server. */
export const MAX_CONCURRENT_STREAMS = 256;

/** nghttp2's stream reset budget per connection: a burst, refilled per second. */
export const RESET_BURST = 1000;
export const RESET_RATE_PER_S = 33;
/**
 * The guard closes a connection gracefully when this much of the budget is left: room for
 * as many resets nghttp2 counts and Node does not report (see the file's docblock).
 */
export const RESET_RESERVE = 500;

/** How long a connection closed by the guard may take to answer its calls in flight before it is cut. */
export const CLOSE_GRACE_MS = 10_000;

/** The server-streaming methods: calls that never end by themselves. */
const STREAMING_PATHS = new Set([
  '/svc.sequencer.v1.SequencerService/StreamTicks',
  '/svc.chain.v1.ChainService/StreamTx',
  '/svc.follow.v1.FollowService/StreamBlockRoots',
  '/svc.follow.v1.FollowService/StreamSnapshot',
]);

/** The grpc-js server options these bounds need. */
export const HTTP2_SERVER_OPTIONS = { 'grpc.max_concurrent_streams': MAX_CONCURRENT_STREAMS } as const;

/** A connection's reset budget, in nghttp2's terms (whole seconds). */
export class ResetBudget {
  private tokens = RESET_BURST;
  private at: number;

  constructor(nowS: number) {
    this.at = nowS;
  }

  /** One stream reset by the client; true when the connection should be closed now. */
  reset(nowS: number): boolean {
    if (nowS > this.at) {
      this.tokens = Math.min(RESET_BURST, this.tokens + (nowS - this.at) * RESET_RATE_PER_S);
      this.at = nowS;
    }
    this.tokens--;
    return this.tokens <= RESET_RESERVE;
  }
}

/** Watch every HTTP/2 connection of `server` (call after bindAsync). */
export function guardSessions(server: Server, logger: Logger): void {
  const http2Servers = (server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers;
  if (!(http2Servers instanceof Map) || http2Servers.size === 0) {
    logger.warn('gRPC: cannot reach the HTTP/2 sessions of this grpc-js version; client cancels are not budgeted');
    return;
  }
  for (const h2 of http2Servers.keys()) guardHttp2Server(h2, logger);
}

/** The guard on one node:http2 server: its connections from now on. */
export function guardHttp2Server(h2: Http2Server, logger: Logger): void {
  h2.on('session', (session: Http2Session) => watch(session, logger));
}

function watch(session: Http2Session, logger: Logger): void {
  const budget = new ResetBudget(nowS());
  let resets = 0;
  let open = 0;
  let closing = false;
  const streams = new Set<ServerHttp2Stream>();
  session.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => {
    open++;
    if (STREAMING_PATHS.has(String(headers[':path']))) streams.add(stream);
    stream.once('close', () => {
      open--;
      streams.delete(stream);
      if (stream.rstCode !== constants.NGHTTP2_CANCEL || closing) return;
      resets++;
      if (!budget.reset(nowS())) return;
      closing = true;
      const peer = `${session.socket?.remoteAddress ?? '?'}:${session.socket?.remotePort ?? '?'}`;
      logger.warn(
        { peer, resets, inFlight: open },
        'gRPC: closing a connection gracefully (GOAWAY NO_ERROR): its client cancelled too many calls; the calls in flight are answered, new ones need a new connection',
      );
      // Not from here: this runs inside nghttp2's receive callback (see the file's docblock).
      setImmediate(() => {
        announceClose(session);
        // Its streams would hold the connection open for ever: they end now (the client
        // resumes on a new connection from its last tick or sequence), and whatever is still
        // open after the grace is cut with the connection.
        for (const s of streams) if (!s.closed && !s.destroyed) s.close(constants.NGHTTP2_CANCEL);
        setTimeout(cut, CLOSE_GRACE_MS).unref();
      });
    });
  });
  const cut = (): void => {
    if (!session.destroyed) session.destroy();
  };
}

/**
 * Tell the client of a server session to take new calls elsewhere: GOAWAY NO_ERROR with the
 * highest stream id, which refuses nothing it already sent. Unlike `session.close()` it
 * leaves the session open in Node's JavaScript (see the file's docblock for why that
 * matters); the caller cuts the connection later.
 */
export function announceClose(session: Http2Session): void {
  if (!session.destroyed) session.goaway(constants.NGHTTP2_NO_ERROR, LAST_STREAM_ID);
}

/** The highest HTTP/2 stream id. */
const LAST_STREAM_ID = 2 ** 31 - 1;

function nowS(): number {
  return Math.floor(performance.now() / 1000);
}
