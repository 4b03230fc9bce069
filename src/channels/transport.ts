/**
 * The channels' WebSocket transport (package `ws`) on an http.Server: upgrades for
 * CHANNELS_PATH become hub connections; other paths are left to the server's other upgrade
 * listeners (WS /ws/blocks). Frames go out as the hub framed them: the same buffer is written
 * to each subscriber's socket (server frames are unmasked), with no per-client encode. This
 * is sound because permessage-deflate is off: `ws` then writes its own frames (ping, pong,
 * close) whole and synchronously, so two frames never interleave on a socket, and its
 * bufferedAmount counts our writes (it reads the socket's own write queue).
 *
 *   - at most limits.sockets sockets (then 503) and limits.socketsPerAddress per client
 *     address (then 429); 503 during shutdown;
 *   - client frames above limits.messageBytes are closed by `ws` with 1009, invalid UTF-8
 *     with 1007, broken frames with 1002; a binary message closes with 1003;
 *   - a ping every limits.pingMs; a peer that did not answer the previous one is dropped.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Connection } from './hub.js';
import type { ChannelHub } from './hub.js';
import type { Outlet } from './interface.js';
import { CHANNELS_PATH, CLOSE } from './protocol.js';

interface Peer {
  ws: WebSocket;
  conn: Connection;
  alive: boolean;
}

class WsOutlet implements Outlet {
  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
  ) {}
  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }
  send(frame: Buffer): void {
    this.socket.write(frame);
  }
  queuedBytes(): number {
    return this.ws.bufferedAmount;
  }
  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }
  terminate(): void {
    this.ws.terminate();
  }
}

function refuseUpgrade(socket: Duplex, status: 429 | 503, text: string): void {
  const body = JSON.stringify({ error: text });
  const word = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
  socket.end(
    `HTTP/1.1 ${status} ${word}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export class ChannelSocket {
  private readonly wss: WebSocketServer;
  private readonly peers = new Set<Peer>();
  private readonly perAddress = new Map<string, number>();
  /** Sockets upgrading or open (counted against limits.sockets). */
  private counted = 0;
  private readonly pinger: NodeJS.Timeout;
  private closing = false;

  constructor(readonly hub: ChannelHub) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: hub.limits.messageBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.pinger = setInterval(() => this.ping(), hub.limits.pingMs);
    this.pinger.unref();
  }

  /** Listen to the server's upgrades for CHANNELS_PATH. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  /** Take an upgrade request if it is for CHANNELS_PATH (returns false otherwise, untouched). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if ((req.url ?? '').split('?')[0] !== CHANNELS_PATH) return false;
    socket.on('error', () => undefined);
    const limits = this.hub.limits;
    const address = req.socket.remoteAddress ?? '?';
    if (this.closing) refuseUpgrade(socket, 503, 'node is shutting down');
    else if (this.counted >= limits.sockets)
      refuseUpgrade(socket, 503, `too many channel sockets (at most ${limits.sockets})`);
    else if ((this.perAddress.get(address) ?? 0) >= limits.socketsPerAddress)
      refuseUpgrade(socket, 429, `too many channel sockets from this address (at most ${limits.socketsPerAddress})`);
    else {
      this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
      this.counted++;
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        this.counted--;
        const n = (this.perAddress.get(address) ?? 1) - 1;
        if (n <= 0) this.perAddress.delete(address);
        else this.perAddress.set(address, n);
      };
      socket.once('close', release);
      this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws, socket, address));
    }
    return true;
  }

  private connected(ws: WebSocket, socket: Duplex, address: string): void {
    const conn = this.hub.connect(new WsOutlet(ws, socket), address);
    const peer: Peer = { ws, conn, alive: true };
    this.peers.add(peer);
    ws.on('pong', () => (peer.alive = true));
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) {
        this.hub.disconnected(conn);
        ws.close(CLOSE.unsupportedData, 'binary messages are not accepted; send JSON text');
        return;
      }
      this.hub.message(conn, data.toString('utf8'));
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      this.peers.delete(peer);
      this.hub.disconnected(conn);
    });
  }

  private ping(): void {
    for (const p of this.peers) {
      if (!p.alive) {
        this.peers.delete(p);
        this.hub.disconnected(p.conn);
        p.ws.terminate();
        continue;
      }
      p.alive = false;
      p.ws.ping();
    }
  }

  /** Close every socket with 1001 and stop taking new ones. */
  close(): void {
    this.closing = true;
    clearInterval(this.pinger);
    this.hub.close();
  }
}
