/**
 * The door of src/node: startNode (node.ts: every part opened in order, closed in reverse),
 * the faces it starts by default (faces.ts), its start-up errors and types.
 */
export type { FaceSpec, NodeContext, NodeHandle, PreparedFace, RunningFace, StartNodeOptions } from './interface.js';
export { defaultFaces, grpcFace, restFace } from './faces.js';
export { StartupError } from './errors.js';
export * from './node.js';
