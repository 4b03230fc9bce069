/**
 * The leader side of svc.follow.v1.FollowService/StreamSnapshot: sends the node's latest
 * stored chain snapshot (`chain-meta` / `snapshot`, docs/storage.md) to a new follower
 * (--follow-from snapshot, snapshot-bootstrap.ts). The first message describes it: tick T,
 * byte length, SHA-256, the tick store's last sequence number at T (scanned back from T on
 * the stored ticks, DiskTickStore.lastSequenceAt: the follower checks tick T+1's sequence
 * numbers against it) and the block heights of the builder at T (read from the snapshot's
 * own builder state). Then the bytes in chunks of SNAPSHOT_CHUNK_BYTES, then the records of
 * the block open at T (the chain's readOpenRecords), each message written when the client has
 * taken the one before (backpressure); a client that cancels stops it.
 *
 * Memory: one snapshot value per open call (the LevelDB read), and at most
 * MAX_SNAPSHOT_STREAMS calls at once (RESOURCE_EXHAUSTED beyond). UNAVAILABLE while the
 * node has no snapshot yet.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import type { BuilderState } from '../chain/core/index.js';
import type { OpenRecords } from '../chain/core/index.js';
import { ChainStore, decodeStoredSnapshot } from '../chain/core/index.js';
import type { Database } from '../db/index.js';
import { DiskTickStore, type Head } from '../store/index.js';
import type { ChainSnapshotCode } from './interface.js';
import {
  SNAPSHOT_CHUNK_BYTES,
  wireSnapshotInfo,
  type SnapshotInfo,
  type WireSnapshotChunk,
} from './snapshot-messages.js';

export const MAX_SNAPSHOT_STREAMS = 4;

/** Where the snapshot and the tick store are read: the node's database. */
export interface SnapshotSource {
  bytes(): Promise<Uint8Array | undefined>;
  lastSequenceAt(tick: number): Promise<number>;
  /** The stored records of the block open at the snapshot's tick (the chain's readOpenRecords). */
  openRecords(builder: BuilderState): Promise<OpenRecords>;
}

/** The snapshot source of the node's database; `code` reads the open block's records. */
export function snapshotSource(db: Database, code: Pick<ChainSnapshotCode, 'readOpenRecords'>): SnapshotSource {
  const store = new ChainStore(db);
  const ticks = new DiskTickStore(db);
  // The answer for a snapshot's tick never changes, and snapshots only move forward: the
  // next scan stops at the last one (a chain of idle ticks is not read again per request).
  let known: Head | undefined;
  const lastSequenceAt = async (tick: number): Promise<number> => {
    if (known?.tick === tick) return known.lastSequence;
    const lastSequence = await ticks.lastSequenceAt(tick, known);
    known = { tick, lastSequence };
    return lastSequence;
  };
  return {
    bytes: () => store.snapshotBytes(),
    lastSequenceAt,
    openRecords: (builder) => code.readOpenRecords(store, builder),
  };
}

/** The description of snapshot bytes (their tick, digest and the builder's heights). */
export async function describeSnapshot(
  bytes: Uint8Array,
  source: SnapshotSource,
): Promise<SnapshotInfo & { builder: BuilderState }> {
  const snap = decodeStoredSnapshot(bytes);
  const builder = JSON.parse(snap.builder) as BuilderState;
  return {
    builder,
    tick: snap.tick,
    totalBytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    lastSequence: await source.lastSequenceAt(snap.tick),
    producedHeight: builder.producedHeight,
    lastHeight: builder.lastHeight,
  };
}

type Call = grpc.ServerWritableStream<object, WireSnapshotChunk>;

/** The StreamSnapshot handler; `open` counts the calls in progress (the service's bound and its close()). */
export function streamSnapshotHandler(
  source: SnapshotSource,
  open: Set<Call>,
  stopping: () => boolean,
): (call: Call) => void {
  const refuse = (call: Call, code: grpc.status, details: string): void => void call.emit('error', { code, details });
  return (call: Call) => {
    if (stopping()) return refuse(call, grpc.status.UNAVAILABLE, 'the node is shutting down');
    if (open.size >= MAX_SNAPSHOT_STREAMS)
      return refuse(
        call,
        grpc.status.RESOURCE_EXHAUSTED,
        `${MAX_SNAPSHOT_STREAMS} snapshot streams are open on this node; retry later`,
      );
    open.add(call);
    const gone = (): boolean => call.cancelled || call.destroyed || stopping();
    const write = async (chunk: WireSnapshotChunk): Promise<void> => {
      if (!call.write(chunk)) await Promise.race([once(call, 'drain'), once(call, 'close'), once(call, 'cancelled')]);
    };
    void (async () => {
      const bytes = await source.bytes();
      if (bytes === undefined)
        return refuse(
          call,
          grpc.status.UNAVAILABLE,
          'this node has no chain snapshot yet (one is written every --snapshot-txs order book transactions or --snapshot-ticks ticks); retry later or follow from genesis',
        );
      const info = await describeSnapshot(bytes, source);
      await write({ info: wireSnapshotInfo(info) });
      for (let off = 0; off < bytes.byteLength && !gone(); off += SNAPSHOT_CHUNK_BYTES) {
        await write({
          data: Buffer.from(
            bytes.buffer,
            bytes.byteOffset + off,
            Math.min(SNAPSHOT_CHUNK_BYTES, bytes.byteLength - off),
          ),
        });
      }
      const open = await source.openRecords(info.builder);
      for (const [field, list] of [
        ['open_transactions', open.transactions],
        ['open_events', open.events],
      ] as const) {
        let part: string[] = [];
        let size = 0;
        for (const json of list) {
          if (size + json.length > SNAPSHOT_CHUNK_BYTES && part.length > 0 && !gone()) {
            await write({ [field]: part });
            part = [];
            size = 0;
          }
          part.push(json);
          size += json.length;
        }
        if (part.length > 0 && !gone()) await write({ [field]: part });
      }
      if (!gone()) call.end();
    })()
      .catch((err: unknown) => {
        if (!gone()) refuse(call, grpc.status.INTERNAL, `reading the snapshot failed: ${(err as Error).message}`);
      })
      .finally(() => open.delete(call));
  };
}
