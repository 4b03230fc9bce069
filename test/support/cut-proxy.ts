/**
 * A TCP proxy in front of one of a node's ports that a test can cut, as a network would:
 * `cut(ms)` resets every connection through it and, for `ms`, resets new ones at once
 * (the client sees its socket die, then its reconnects fail), then lets them through again.
 * The client keeps talking to the proxy's address throughout, as a browser keeps its page's
 * origin, so a test checks what a client does across a dropped connection without touching
 * the client.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface CutProxy {
  /** host:port of the proxy. */
  address: string;
  /** Sockets (both ends of each connection) reset so far by cut(). */
  resets(): number;
  /** Reset every connection now, and refuse new ones for `ms`. */
  cut(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCutProxy(target: string): Promise<CutProxy> {
  const at = target.lastIndexOf(':');
  const host = target.slice(0, at);
  const port = Number(target.slice(at + 1));
  const open = new Set<Socket>();
  let downUntil = 0;
  let resets = 0;
  const server: Server = createServer((client) => {
    if (Date.now() < downUntil) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.on('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    address,
    resets: () => resets,
    async cut(ms = 0) {
      downUntil = Date.now() + ms;
      for (const s of [...open]) {
        resets++;
        s.resetAndDestroy();
      }
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    },
    async close() {
      for (const s of [...open]) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
