/**
 * Full nodes (issue 9, docs/full-node.md): a Follower is a Sequencer fed by a leader's
 * verified ticks; the node runs its usual faces on it.
 */
export { Follower, probeLeader, type FollowStatus } from './follower.js';
export { followerFactory, type FollowerFactoryOptions } from './factory.js';
export { FollowError, type ChainSnapshotCode, type FollowerOptions, type TickFailure } from './interface.js';
export { checkTicks, vdfInputOf, type ChunkContext } from './check.js';
export { tickOfWire } from './decode-tick.js';
export { followService, followDefinition, FOLLOW_STREAM_LIMITS } from './block-roots-service.js';
export { BlockRootCache, storedBlocks, CACHE_ROOTS, READ_BATCH } from './root-cache.js';
export { decodeStreamBlockRootsRequest, decodeStreamSnapshotRequest } from './requests.js';
export { RootsCheck, startRootsCheck, type RootsCheckContext } from './roots-check.js';
export {
  FOLLOW_PROTO,
  FOLLOW_SERVICE,
  loadFollowPackage,
  blockRootOf,
  encodeBlockRoot,
  type WireBlockRoot,
} from './block-roots.js';
export { registerFollowMetrics } from './metrics.js';
export { dexForwarder, type DexForwarder, type LeaderIdentity } from './forward-http.js';
export { fetchSnapshot } from './snapshot-client.js';
export { seedFromSnapshot } from './snapshot-bootstrap.js';
export { snapshotSource, describeSnapshot, MAX_SNAPSHOT_STREAMS, type SnapshotSource } from './snapshot-service.js';
export {
  SNAPSHOT_CHUNK_BYTES,
  MAX_SNAPSHOT_BYTES,
  parseSnapshotInfo,
  wireSnapshotInfo,
  type SnapshotInfo,
  type WireSnapshotChunk,
  type WireSnapshotInfo,
} from './snapshot-messages.js';
export { FollowHalts, FOLLOWING_HEALTH, type HaltSource } from './halt.js';
