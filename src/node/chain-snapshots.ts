/**
 * The chain's snapshot code as a full node's follow services take it (ChainSnapshotCode,
 * src/follow/interface.ts): restoring a stored snapshot, and reading and writing the
 * records of the block open at its tick. src/follow declares what it needs and the node
 * hands it src/chain's own functions, so src/follow never imports the chain's runtime.
 */
import { openRecordOps, readOpenRecords } from '../chain/core/index.js';
import { restoreSnapshot } from '../chain/core/index.js';
import type { ChainSnapshotCode } from '../follow/index.js';

export const CHAIN_SNAPSHOT_CODE: ChainSnapshotCode = { restoreSnapshot, readOpenRecords, openRecordOps };
