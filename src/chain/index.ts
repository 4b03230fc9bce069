/**
 * The chain node (spec/3): blocks cut from the order book's applied ticks, their
 * persistence, the explorer REST, WS /ws/blocks and the gRPC ChainService.
 * Surface for the rest of the node: the types and the ChainReader (interface.ts).
 */
export * from './interface.js';
