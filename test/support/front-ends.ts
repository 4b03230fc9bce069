/**
 * Starts the real gRPC and REST faces on 127.0.0.1 port 0 over a given Sequencer (the
 * FakeSequencer double in front-end unit tests), and closes them again.
 */
import type { Registry } from 'prom-client';
import { startGrpcFace, type GrpcFace, type GrpcFaceOptions } from '../../src/sequencer/api/grpc/server.js';
import { startRestFace, type RestFace } from '../../src/sequencer/api/rest/server.js';
import { silentLogger } from '../../src/log/index.js';
import type { Sequencer } from '../../src/sequencer/interface.js';

const LOCAL = { host: '127.0.0.1', port: 0 };

export async function grpcFace(sequencer: Sequencer, options: Partial<GrpcFaceOptions> = {}): Promise<GrpcFace> {
  return startGrpcFace(sequencer, LOCAL, { logger: silentLogger(), shutdownGraceMs: 500, ...options });
}

export async function restFace(sequencer: Sequencer, registry?: Registry): Promise<RestFace> {
  return startRestFace(sequencer, LOCAL, { logger: silentLogger(), registry, shutdownGraceMs: 500 });
}
