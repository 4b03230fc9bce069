/**
 * The sequencer's front-ends: gRPC svc.sequencer.v1.SequencerService and REST /api/v1.
 */
export { startGrpcFace, type GrpcFace, type GrpcFaceOptions } from './grpc/server.js';
export { startRestFace, type RestFace, type RestFaceOptions } from './rest/server.js';
export { createRestApp, type RestAppOptions } from './rest/app.js';
export { SEQUENCER_PROTO, SEQUENCER_SERVICE, loadSequencerPackage } from './proto.js';
export { encodeTick } from './grpc/encode.js';
export * from './limits.js';
export {
  NodeClient,
  explain,
  grpcTarget,
  type ItemError,
  type WireOrdered,
  type WireStatus,
  type WireSubmitResponse,
  type WireTick,
  type WireTransaction,
} from './grpc/client.js';
export { isMalformed, type Malformed } from './grpc/requests.js';
export type { ExtraGrpcService } from './grpc/server.js';
export { IntakeThreads } from './grpc/intake.js';
