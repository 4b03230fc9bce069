/**
 * The door of src/db: the node's one embedded database, LevelDB (database.ts), and puts
 * that write a sublevel's bytes through its parent (prefixed-put.ts).
 */
export * from './database.js';
export { binaryPut, textPut, type PrefixedPut, type PrefixingSublevel } from './prefixed-put.js';
