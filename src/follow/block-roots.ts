/**
 * svc.follow.v1.FollowService (proto/svc/follow/v1/follow.proto): the leader side streams
 * each produced block's state root and the SHA-256 of its detail JSON (the bytes
 * GET /blocks/:height serves); the follower side compares them with the blocks it
 * produced itself from the verified ticks (roots-check.ts). Pure encoding here.
 */
import { createHash } from 'node:crypto';
import * as protoLoader from '@grpc/proto-loader';
import { detailJson } from '../chain/chain.js';
import type { BlockDetail } from '../chain/interface.js';
import { LOADER_OPTIONS } from '../rpc/proto.js';

export const FOLLOW_PROTO = 'svc/follow/v1/follow.proto';
export const FOLLOW_SERVICE = 'svc.follow.v1.FollowService';

let cached: protoLoader.PackageDefinition | undefined;
export function loadFollowPackage(): protoLoader.PackageDefinition {
  cached ??= protoLoader.loadSync(FOLLOW_PROTO, LOADER_OPTIONS);
  return cached;
}

/** One block as the stream carries it (proto-loader object: u64 as a decimal string). */
export interface WireBlockRoot {
  height: string;
  state_root: string;
  detail_sha256: string;
}

export function blockRootOf(d: BlockDetail): WireBlockRoot {
  return {
    height: String(d.block.height),
    state_root: Buffer.from(d.block.state_root).toString('hex'),
    detail_sha256: createHash('sha256').update(detailJson(d)).digest('hex'),
  };
}
