/**
 * svc.follow.v1.FollowService (proto/svc/follow/v1/follow.proto): the leader side streams
 * each produced block's state root and the SHA-256 of its detail JSON (the bytes
 * GET /blocks/:height serves); the follower side compares them with the blocks it
 * produced itself from the verified ticks (roots-check.ts). Pure encoding here.
 */
import { createHash } from 'node:crypto';
import * as protoLoader from '@grpc/proto-loader';
import { detailJson } from '../chain/core/index.js';
import type { BlockDetail } from '../chain/core/index.js';
import { Writer } from '../wire/index.js';
import { LOADER_OPTIONS } from '../wire/index.js';

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
  return rootOfJson(d.block.height, d.block.state_root, detailJson(d));
}

/** The root from a block's state_root and its detail JSON text (the stored bytes REST serves). */
export function rootOfJson(height: number, stateRoot: readonly number[], json: string): WireBlockRoot {
  return {
    height: String(height),
    state_root: Buffer.from(stateRoot).toString('hex'),
    detail_sha256: createHash('sha256').update(json).digest('hex'),
  };
}

/** BlockRoot as protobuf bytes (field numbers of follow.proto), encoded once and sent as is. */
export function encodeBlockRoot(r: WireBlockRoot): Buffer {
  return new Writer(160).uint64(1, BigInt(r.height)).string(2, r.state_root).string(3, r.detail_sha256).finish();
}
