/**
 * The sequencer's front-ends: gRPC svc.sequencer.v1.SequencerService and REST /api/v1.
 */
export { startGrpcFace, type ExtraGrpcService } from './grpc/server.js';
export { startRestFace } from './rest/server.js';
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
export { IntakeThreads } from './grpc/intake.js';
