/**
 * Ticks on disk and in memory: the compact binary tick record, the LevelDB store with its
 * indexes, the memory window, the write-ahead log, the archive's JSON record, and TickLog,
 * the durable tick store the sequencer commits to (docs/storage.md).
 */
export { TickLog } from './tick-log.js';
export { TickReads } from './tick-reads.js';
export { MemoryTickStore } from './memory-store.js';
export { packedSize, readPacked, writePacked } from './packed.js';
export { DiskTickStore, binarySublevel, type ExtraOp, type Head } from './disk-store.js';
export { WriteAheadLog, type WalEntry } from './wal.js';
export { encodeArchiveRecord } from './archive.js';
