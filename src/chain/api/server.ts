/**
 * The chain face on --rpc-addr: one node:http server with the explorer REST (rest.ts),
 * the routes other parts of the node add (RpcRouteHook: the explorer page at `/`), and
 * on its upgrade requests the WebSockets other parts add (RpcUpgradeRoute: the live
 * channels at /ws), each taking its own path, then WS /ws/blocks (ws.ts) for the rest. Two-phase shutdown like the other faces:
 * stopAccepting() refuses new WebSocket clients; close() closes them (1001), then the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { answerClientErrors, formatHostPort } from '../../wire/index.js';
import type { HostPort as ListenAddress } from '../../wire/index.js';
import type { DexState } from '../../dex/engine/index.js';
import type { Sequencer } from '../../sequencer/index.js';
import type { Chain, OrderRecords } from '../core/index.js';
import type { RpcRouteHook, RpcUpgradeRoute } from './interface.js';
import { createExplorerApp } from './rest.js';
import { BlockSocket, DEFAULT_BLOCK_SOCKET, type BlockSocketOptions } from './ws.js';

export interface RpcFaceOptions {
  chain: Chain;
  state: () => DexState;
  sequencer: Pick<Sequencer, 'getTick' | 'status'>;
  addr: ListenAddress;
  logger: Logger;
  hooks?: readonly RpcRouteHook[];
  upgrades?: readonly RpcUpgradeRoute[];
  orders?: OrderRecords;
  ws?: Partial<BlockSocketOptions>;
  shutdownGraceMs?: number; // default 5000
}

export interface RpcFace {
  address: string;
  port: number;
  sockets: BlockSocket;
  stopAccepting(): void;
  close(): Promise<void>;
}

export async function startRpcFace(options: RpcFaceOptions): Promise<RpcFace> {
  const app = createExplorerApp({
    chain: options.chain,
    state: options.state,
    sequencer: options.sequencer,
    logger: options.logger,
    hooks: options.hooks ?? [],
    ...(options.orders ? { orders: options.orders } : {}),
  });
  const server: Server = createServer(app.callback());
  answerClientErrors(server); // 431 reaches a client still sending a long URL
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const sockets = new BlockSocket(options.chain, options.logger, { ...DEFAULT_BLOCK_SOCKET, ...options.ws });
  const upgrades = options.upgrades ?? [];
  server.on('upgrade', (req, socket, head: Buffer) => {
    for (const route of upgrades) if (route.upgrade(req, socket, head)) return;
    sockets.upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.addr.port, options.addr.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    address: formatHostPort({ host: options.addr.host, port }),
    port,
    sockets,
    stopAccepting() {
      // New WebSocket clients are refused from here on (close() does it); REST keeps answering.
    },
    close() {
      closing ??= (async () => {
        sockets.close();
        for (const route of upgrades) route.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 5000);
        await closed;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
