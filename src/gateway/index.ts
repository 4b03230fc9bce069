/**
 * The door of src/gateway, the order book face across all cores (issue 10,
 * docs/architecture.md "Gateways"): prepareGatewayFace and startGatewayFace (face.ts) fork
 * the gateway processes and start the node process's side of them; the channel's frames.
 */
export type { GatewayProcessConfig, GatewaySet } from './interface.js';
export { SequencerChannel } from './channel.js';
export { startHub, type GatewayHub } from './hub.js';
export * from './frames.js';
export * from './face.js';
