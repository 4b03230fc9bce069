/**
 * Full nodes (issue 9, docs/full-node.md): a Follower is a Sequencer fed by a leader's
 * verified ticks; the node runs its usual faces on it.
 */
export { Follower, probeLeader } from './follower.js';
export { followerFactory } from './factory.js';
export { FollowError, type ChainSnapshotCode } from './interface.js';
export { followService } from './block-roots-service.js';
export { storedBlocks } from './root-cache.js';
export { startRootsCheck } from './roots-check.js';
export { FOLLOW_SERVICE, loadFollowPackage, type WireBlockRoot } from './block-roots.js';
export { registerFollowMetrics } from './metrics.js';
export { dexForwarder } from './forward-http.js';
export { fetchSnapshot } from './snapshot-client.js';
export { snapshotSource, type SnapshotSource } from './snapshot-service.js';
export {
  SNAPSHOT_CHUNK_BYTES,
  wireSnapshotInfo,
  type SnapshotInfo,
  type WireSnapshotChunk,
} from './snapshot-messages.js';
export { FOLLOWING_HEALTH } from './halt.js';
