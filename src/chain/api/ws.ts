/**
 * WS /ws/blocks (the `ws` package) on the rpc port: on connect the latest block detail at
 * once (nothing when no block exists yet), then every new block detail as it is stored,
 * one text message each (the JSON of GET /blocks/:height). Each block is serialized once
 * and the same bytes go to every client.
 *
 * Hostile or slow clients (docs/chain.md "WebSocket"):
 *   - each client's send queue (bytes the socket has not yet sent) is bounded by
 *     `maxQueueBytes`: a client past it is sent nothing more, is closed with code 4000
 *     ("too slow") and its socket is destroyed 2 s later, so it never grows the node's
 *     memory nor delays the others;
 *   - the socket only sends: a client that sends a data message is closed with 1003;
 *     frames above 1 KiB or broken frames are closed by `ws` (1009, 1002);
 *   - a ping every `pingMs`; a client that has not answered the previous one is dropped;
 *   - at most `maxClients` connections; beyond, the upgrade is answered 503;
 *   - node shutdown: 1001 ("going away").
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { BlockDetail, Unsubscribe } from '../core/index.js';
import { encodeJson } from '../../wire/index.js';

export const WS_PATH = '/ws/blocks';
export const CLOSE_TOO_SLOW = 4000;
export const CLOSE_UNSUPPORTED_DATA = 1003;
export const CLOSE_GOING_AWAY = 1001;
const SLOW_CLOSE_GRACE_MS = 2_000;

export interface BlockSocketOptions {
  maxClients: number; // default 10,000
  maxQueueBytes: number; // default 4 MiB
  pingMs: number; // default 30 s
}

export const DEFAULT_BLOCK_SOCKET: BlockSocketOptions = {
  maxClients: 10_000,
  maxQueueBytes: 4 * 1024 * 1024,
  pingMs: 30_000,
};

interface Client {
  ws: WebSocket;
  alive: boolean;
}

/** Where the blocks come from: the Chain (stored blocks only). */
export interface BlockSource {
  onBlock(listener: (detail: BlockDetail) => void): Unsubscribe;
  latestDetailJson(): { height: number; json: string; bytes?: Buffer } | undefined;
}

export class BlockSocket {
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  private closing = false;
  /** Clients closed for being too slow (for /metrics and tests). */
  slowClosed = 0;

  constructor(
    private readonly chain: BlockSource,
    private readonly logger: Logger,
    private readonly options: BlockSocketOptions = DEFAULT_BLOCK_SOCKET,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: 1024,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.unsubscribe = chain.onBlock((d) => this.broadcast(d));
    this.pinger = setInterval(() => this.ping(), options.pingMs);
    this.pinger.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  /** Route the server's upgrade requests for WS_PATH here; others get 404. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  /** Take one upgrade request: WS_PATH's are served, others answered 404. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '').split('?')[0];
    const refuse = (status: number, text: string) => {
      const body = JSON.stringify({ error: text });
      socket.end(
        `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Service Unavailable'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    socket.on('error', () => undefined);
    if (path !== WS_PATH) return refuse(404, `no WebSocket at ${path}; use ${WS_PATH}`);
    if (this.closing) return refuse(503, 'node is shutting down');
    if (this.clients.size >= this.options.maxClients)
      return refuse(503, `too many WebSocket clients (at most ${this.options.maxClients})`);
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
    const client: Client = { ws, alive: true };
    this.clients.add(client);
    ws.on('pong', () => (client.alive = true));
    ws.on('message', () =>
      ws.close(CLOSE_UNSUPPORTED_DATA, 'this socket only sends blocks; client messages are not accepted'),
    );
    ws.on('error', () => undefined);
    ws.on('close', () => this.clients.delete(client));
    const latest = this.chain.latestDetailJson();
    if (latest) this.send(client, latest.bytes ?? Buffer.from(latest.json));
  }

  private broadcast(detail: BlockDetail): void {
    if (this.clients.size === 0) return;
    const latest = this.chain.latestDetailJson();
    const data =
      latest?.height === detail.block.height && latest.bytes ? latest.bytes : Buffer.from(encodeJson(detail));
    for (const c of this.clients) this.send(c, data);
  }

  private send(c: Client, data: Buffer): void {
    const ws = c.ws;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount + data.length > this.options.maxQueueBytes) {
      this.slowClosed++;
      this.clients.delete(c);
      this.logger.debug({ queued: ws.bufferedAmount }, 'ws: closing a client that does not read (4000)');
      ws.close(CLOSE_TOO_SLOW, `too slow: more than ${this.options.maxQueueBytes} bytes waiting to be sent`);
      // The close frame waits behind the unread data: a client that reads again within the
      // grace sees 4000; then the socket is destroyed whatever happens. Nothing more is sent.
      const t = setTimeout(() => ws.terminate(), SLOW_CLOSE_GRACE_MS);
      t.unref();
      return;
    }
    ws.send(data, { binary: false });
  }

  private ping(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        this.clients.delete(c);
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }

  /** Close every client with 1001 and stop. */
  close(): void {
    this.closing = true;
    clearInterval(this.pinger);
    this.unsubscribe();
    for (const c of this.clients) {
      c.ws.close(CLOSE_GOING_AWAY, 'node shutting down');
      const t = setTimeout(() => c.ws.terminate(), 1000);
      t.unref();
    }
    this.clients.clear();
  }
}
