/**
 * svc.follow.v1.FollowService/StreamSnapshot as it travels (proto/svc/follow/v1/follow.proto;
 * proto-loader objects: u64 as decimal strings, bytes as Buffers): the first message
 * carries the snapshot's description, the next ones its bytes. Shared by the leader side
 * (snapshot-service.ts) and the follower side (snapshot-client.ts), with the bounds both
 * hold to.
 */

/** Bytes per data message (the gRPC default receive limit is 4 MiB). */
export const SNAPSHOT_CHUNK_BYTES = 1024 * 1024;

/** A snapshot announced larger than this is refused by the follower before anything is read. */
export const MAX_SNAPSHOT_BYTES = 1024 ** 3;

export interface WireSnapshotInfo {
  tick: string;
  total_bytes: string;
  sha256: string;
  last_sequence: string;
  produced_height: string;
  last_height: string;
}

export interface WireSnapshotChunk {
  info?: WireSnapshotInfo | null;
  data?: Buffer;
  open_transactions?: string[];
  open_events?: string[];
}

/** The description, parsed: what the follower checks the bytes and tick T against. */
export interface SnapshotInfo {
  tick: number;
  totalBytes: number;
  sha256: string;
  lastSequence: number;
  producedHeight: number;
  lastHeight: number;
}

export function wireSnapshotInfo(i: SnapshotInfo): WireSnapshotInfo {
  return {
    tick: String(i.tick),
    total_bytes: String(i.totalBytes),
    sha256: i.sha256,
    last_sequence: String(i.lastSequence),
    produced_height: String(i.producedHeight),
    last_height: String(i.lastHeight),
  };
}

function whole(text: string | undefined, what: string, min: number): number {
  const n = Number(text);
  if (typeof text !== 'string' || !/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min)
    throw new Error(`its ${what} is not a whole number from ${min}: '${String(text)}'`);
  return n;
}

/** Throws (naming the field) on a description that is missing, malformed or out of bounds. */
export function parseSnapshotInfo(w: WireSnapshotInfo | null | undefined): SnapshotInfo {
  if (!w) throw new Error('its first message carries no snapshot description (info)');
  const info: SnapshotInfo = {
    tick: whole(w.tick, 'tick', 1),
    totalBytes: whole(w.total_bytes, 'total_bytes', 12),
    sha256: String(w.sha256),
    lastSequence: whole(w.last_sequence, 'last_sequence', 0),
    producedHeight: whole(w.produced_height, 'produced_height', 0),
    lastHeight: whole(w.last_height, 'last_height', 0),
  };
  if (!/^[0-9a-f]{64}$/.test(info.sha256))
    throw new Error(`its sha256 is not 64 lowercase hex digits: '${info.sha256}'`);
  if (info.totalBytes > MAX_SNAPSHOT_BYTES)
    throw new Error(`it announces ${info.totalBytes} bytes, above the limit of ${MAX_SNAPSHOT_BYTES}`);
  if (info.lastHeight < info.producedHeight)
    throw new Error(`its last_height ${info.lastHeight} is below its produced_height ${info.producedHeight}`);
  return info;
}
