/**
 * The chain face on --rpc-addr: one node:http server with the explorer REST (rest.ts),
 * the routes other parts of the node add (RpcRouteHook: the explorer page at `/`), and
 * WS /ws/blocks (ws.ts) on its upgrade requests. Two-phase shutdown like the other faces:
 * stopAccepting() refuses new WebSocket clients; close() closes them (1001), then the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { formatHostPort } from '../wire/index.js';
import type { ListenAddress } from '../config/interface.js';
import type { DexState } from '../dex/engine/index.js';
import type { Sequencer } from '../sequencer/interface.js';
import type { Chain } from './core/chain.js';
import type { OrderRecords } from './core/order-records.js';
import type { RpcRouteHook } from './interface.js';
import { createExplorerApp } from './rest.js';
import { BlockSocket, DEFAULT_BLOCK_SOCKET, type BlockSocketOptions } from './ws.js';

export interface RpcFaceOptions {
  chain: Chain;
  state: () => DexState;
  sequencer: Pick<Sequencer, 'getTick'>;
  addr: ListenAddress;
  logger: Logger;
  hooks?: readonly RpcRouteHook[];
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
  const app = createExplorerApp({ chain: options.chain, state: options.state, sequencer: options.sequencer, logger: options.logger, hooks: options.hooks ?? [], ...(options.orders ? { orders: options.orders } : {}) });
  const server: Server = createServer(app.callback());
  server.keepAliveTimeout = 5000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const sockets = new BlockSocket(options.chain, options.logger, { ...DEFAULT_BLOCK_SOCKET, ...options.ws });
  sockets.attach(server);
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
