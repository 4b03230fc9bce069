/**
 * The door of src/db: the node's one embedded database, LevelDB (database.ts).
 */
export * from './database.js';
