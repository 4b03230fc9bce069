/**
 * The door of the order book's faces (spec/2): its HTTP face (start.ts: `startDex`, on the
 * node's runtime or, alone, on one of its own) and the gateway processes that serve the
 * order book port across all cores (gateway/). The runtime they serve is ../index.ts.
 */
export type { DexDeps } from './interface.js';
export { listenAddress, startDex } from './start.js';
export { prepareGatewayFace, startGatewayFace, type PreparedGatewayFace } from './gateway/index.js';
