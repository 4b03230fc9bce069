/**
 * The list of faces `svc node` runs, started in this order and closed in reverse.
 * Adding one (the explorer RPC on --rpc-addr, say) is one FaceSpec entry here.
 */
import { formatAddress } from '../config/index.js';
import { startDex } from '../dex/index.js';
import { startGrpcFace } from '../rpc/grpc/server.js';
import { startRestFace } from '../rpc/rest/server.js';
import type { FaceSpec } from './interface.js';

export const grpcFace: FaceSpec = {
  name: 'grpc',
  async start(ctx) {
    const face = await startGrpcFace(ctx.sequencer, ctx.config.grpcAddr, { logger: ctx.logger, streamStallMs: ctx.config.streamStallMs });
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
      onClientGone: () => ctx.metrics.requestAborted('dex'),
    });
    return { name: 'dex', address: dex.address, stopAccepting: () => dex.stopAccepting(), close: () => dex.close() };
  },
};

export function defaultFaces(): FaceSpec[] {
  return [grpcFace, restFace, dexFace];
}
