/**
 * The door of src/pool: the node's one worker pool (pool.ts).
 */
export { workerFile, createPool } from './pool.js';
