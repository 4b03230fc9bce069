/**
 * The sequencer's front-ends: gRPC svc.sequencer.v1.SequencerService and REST /api/v1. Its
 * client and .proto are the client part (client/index.ts), which loads no server.
 */
export { startGrpcFace, type ExtraGrpcService } from './grpc/server.js';
export { startRestFace } from './rest/server.js';
export { isMalformed, type Malformed } from './grpc/requests.js';
export { IntakeThreads } from './grpc/intake.js';
