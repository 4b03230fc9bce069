/**
 * The door of src/node: startNode (node.ts: every part opened in order, closed in reverse),
 * its start-up errors and types. The faces it starts by default are faces.ts's (tests name
 * that file): the door does not load them, so a node whose faces run on the node thread
 * does not load them on its ordering thread.
 */
export type { FaceSpec, NodeHandle, StartNodeOptions } from './interface.js';
export { StartupError } from './errors.js';
export * from './node.js';
