/**
 * The list of faces `svc node` runs, started in this order and closed in reverse.
 * Adding one (the explorer RPC on --rpc-addr, say) is one FaceSpec entry here.
 */
import { formatAddress } from '../config/index.js';
import { startDex } from '../dex/index.js';
import { startGrpcFace } from '../rpc/grpc/server.js';
import { startRestFace } from '../rpc/rest/server.js';
import type { ChainConsumerSpec, RpcRouteHook } from '../chain/interface.js';
import type { FaceSpec } from './interface.js';

/**
 * Hooks of the chain face (--rpc-addr): extra routes on its HTTP server (the explorer page
 * at `/`), and consumers of the stored chain started with it (the NATS JetStream producer
 * when --mq-url is set). One entry per hook; see src/chain/interface.ts.
 */
export const RPC_ROUTE_HOOKS: RpcRouteHook[] = [];
export const CHAIN_CONSUMERS: ChainConsumerSpec[] = [];

export const grpcFace: FaceSpec = {
  name: 'grpc',
  async start(ctx) {
    const face = await startGrpcFace(ctx.sequencer, ctx.config.grpcAddr, { logger: ctx.logger });
    return {
      name: 'grpc',
      address: face.address,
      stopAccepting: () => face.stopAccepting(),
      close: () => face.close(),
      streamClients: () => face.streamClients(),
    };
  },
};

export const restFace: FaceSpec = {
  name: 'rest',
  async start(ctx) {
    const face = await startRestFace(ctx.sequencer, ctx.config.restAddr, { logger: ctx.logger, registry: ctx.metrics.registry });
    return { name: 'rest', address: face.address, stopAccepting: () => face.stopAccepting(), close: () => face.close() };
  },
};

/** The order book API (spec/2) on --dex-addr; it rebuilds its books from the stored ticks first. */
export const dexFace: FaceSpec = {
  name: 'dex',
  async start(ctx) {
    const dex = await startDex({
      db: ctx.db,
      pool: ctx.pool,
      sequencer: ctx.sequencer,
      logger: ctx.logger,
      dbPath: ctx.config.dbPath,
      addr: formatAddress(ctx.config.dexAddr),
    });
    return { name: 'dex', address: dex.address, stopAccepting: () => dex.stopAccepting(), close: () => dex.close() };
  },
};

export function defaultFaces(): FaceSpec[] {
  return [grpcFace, restFace, dexFace];
}
