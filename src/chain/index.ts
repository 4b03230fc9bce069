/**
 * The door of the chain's runtime (spec/3): the chain the node opens and the order book
 * feeds (runtime.ts), the consumers of the stored chain the node starts with it
 * (interface.ts), the JetStream producer's parts (mq/). The chain's core (blocks, their
 * store, the Chain that writes before it shows) has its own door, core/index.ts; its faces
 * (explorer REST and WebSockets, gRPC ChainService, the explorer page) theirs, api/index.ts.
 */
export type { ChainConsumerSpec } from './interface.js';
export { openChainRuntime, type ChainPart, type ChainRuntime } from './runtime.js';
export { mqConsumer, natsServerOptions, redact } from './mq/index.js';
