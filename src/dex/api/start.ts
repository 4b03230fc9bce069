/**
 * startDex: the order book's HTTP face, listening on its address (or a Unix socket, behind
 * the gateway processes) and serving the API on the node's runtime or, alone (tests,
 * benchmarks), on one of its own that replays every stored tick.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseHostPort, type HostPort } from '../../wire/index.js';
import { createHandler } from './http.js';
import { DexService, startOrderBook } from '../index.js';
import type { DexDeps, DexHandle } from './interface.js';

/** Where to listen: a host and port as they are, or `host:port` text parsed (src/wire host-port.ts). */
export function listenAddress(addr: HostPort | string): HostPort {
  if (typeof addr !== 'string') return addr;
  const hp = parseHostPort(addr);
  if (hp) return hp;
  if (parseHostPort(addr.replace(/:\d{1,5}$/, ':0'))) throw new Error(`bad port in '${addr}'`);
  throw new Error(`bad address '${addr}', expected host:port`);
}

export async function startDex(deps: DexDeps): Promise<DexHandle & { service: DexService; stopAccepting(): void }> {
  const { host, port } = listenAddress(deps.addr);
  // The node's runtime, or (a lone face) one of our own that replays every stored tick.
  const own = deps.book === undefined;
  const book =
    deps.book ??
    (await startOrderBook({
      sequencer: deps.sequencer,
      pool: deps.pool,
      dbPath: deps.dbPath,
      ...(deps.signatureThreads !== undefined ? { signatureThreads: deps.signatureThreads } : {}),
      ...(deps.maxPending !== undefined ? { maxPending: deps.maxPending } : {}),
      ...(deps.logger ? { logger: deps.logger } : {}),
    }));
  const service = new DexService(book);
  const handler = createHandler(service, {
    ...(deps.bodyLimitBytes !== undefined ? { bodyLimit: deps.bodyLimitBytes } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.onClientGone ? { onClientGone: deps.onClientGone } : {}),
    ...(deps.follow ? { follow: deps.follow } : {}),
  });
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;
  const listenOn = (done: () => void): void => {
    if (deps.socketPath !== undefined) server.listen(deps.socketPath, done);
    else server.listen(port, host, done);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      listenOn(() => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if (own) await book.close();
    throw err;
  }
  const a = server.address() as AddressInfo | string;
  const address = typeof a === 'string' ? a : `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  deps.logger?.info({ address, sequencer_id: book.key.sequencerId }, 'dex: listening');
  return {
    address,
    service,
    stopAccepting() {
      server.close();
    },
    async close() {
      await new Promise<void>((resolve) => {
        if (!server.listening) resolve();
        else server.close(() => resolve());
        server.closeAllConnections();
      });
      if (own) await book.close();
      else await book.idle();
    },
  };
}
