/**
 * The list of faces `svc node` runs. Adding one (the order book on --dex-addr, the
 * explorer RPC on --rpc-addr) is one entry here, for example:
 *
 *   { name: 'dex', start: async (ctx) => {
 *       const dex = await startDex({ ...ctx, addr: ctx.config.dexAddr });
 *       return { name: 'dex', address: dex.address, stopAccepting: () => dex.stopAccepting(), close: () => dex.close() };
 *   } },
 */
import { startGrpcFace } from '../rpc/grpc/server.js';
import { startRestFace } from '../rpc/rest/server.js';
import type { FaceSpec } from './interface.js';

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

export function defaultFaces(): FaceSpec[] {
  return [grpcFace, restFace];
}
