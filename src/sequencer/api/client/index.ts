/**
 * The door of the sequencer's client side: the gRPC client of svc.sequencer.v1 (client.ts)
 * with its wire shapes, the .proto it and the server load (proto.ts), and the metadata key a
 * full node sends (metadata.ts). It loads no server, so a command that dials a node (`svc
 * status`, `tx`, `tick`, `verify`) and a full node's follower load only this; the faces
 * (../index.ts) stand above it and take the .proto from here.
 */
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
} from './client.js';
export { SEQUENCER_PROTO, SEQUENCER_SERVICE, loadSequencerPackage, sequencerServiceDefinition } from './proto.js';
export { FOLLOWER_METADATA } from './metadata.js';
