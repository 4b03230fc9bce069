/**
 * The door of the order book's HTTP face (spec/2): `startDex` (start.ts), on the node's
 * runtime or, alone, on one of its own. The gateway processes that serve the order book
 * port and the gRPC order entry across all cores have their own door (gateway/index.ts),
 * a floor above the faces. The runtime they serve is ../index.ts.
 */
export type { DexDeps } from './interface.js';
export { listenAddress, startDex } from './start.js';
export { DEFAULT_BODY_LIMIT, readJsonBody, sendError, sendJsonText } from './http-json.js';
