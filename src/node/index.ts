/**
 * The door of src/node: startNode (node.ts: every part opened in order, closed in reverse),
 * the faces it starts by default (faces.ts), its start-up errors and types.
 */
export type { FaceSpec, NodeHandle, StartNodeOptions } from './interface.js';
export { defaultFaces, grpcFace } from './faces.js';
export { StartupError } from './errors.js';
export * from './node.js';
