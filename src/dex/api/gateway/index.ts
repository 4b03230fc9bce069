/**
 * The door of the gateway processes (src/dex/api/gateway), the order book face across all cores (issue 10,
 * docs/architecture.md "Gateways"): prepareGatewayFace and startGatewayFace (face.ts) fork
 * the gateway processes and start the node process's side of them; the channel's frames.
 */
export { SequencerChannel } from './channel.js';
export {
  encodeRequest,
  decodeRequest,
  encodeApplied,
  encodeRefused,
  decodeReply,
  KIND_ORDER,
  KIND_CANCEL,
  MAX_FRAME_BYTES,
  FrameReader,
} from './frames.js';
export { prepareGatewayFace, startGatewayFace, type PreparedGatewayFace } from './face.js';
