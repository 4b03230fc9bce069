/**
 * The follower side of svc.follow.v1.FollowService/StreamSnapshot: fetch a leader's latest
 * chain snapshot and check what the stream itself can prove, before anything is written:
 * a well-formed description first, no more bytes than announced, no bytes after the open
 * block's records, exactly the announced length, and the announced SHA-256. Hostile input is refused with a
 * FollowError naming the reason; the bytes are held in memory as they arrive (at most the
 * announced length, itself at most MAX_SNAPSHOT_BYTES). The caller checks the rest (that
 * it decodes, its tick, snapshot-bootstrap.ts).
 */
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { grpcTarget } from '../sequencer/api/client/index.js';
import { loadFollowPackage } from './block-roots.js';
import { FollowError } from './interface.js';
import type { OpenRecords } from '../chain/core/index.js';
import {
  MAX_SNAPSHOT_BYTES,
  parseSnapshotInfo,
  type SnapshotInfo,
  type WireSnapshotChunk,
} from './snapshot-messages.js';

type SnapshotClient = grpc.Client & { StreamSnapshot(req: object): grpc.ClientReadableStream<WireSnapshotChunk> };

/** No message for this long stops the fetch (a leader that stalls). */
const IDLE_MS = 30_000;

export async function fetchSnapshot(
  leader: string,
  options: { idleMs?: number } = {},
): Promise<{ info: SnapshotInfo; bytes: Uint8Array; open: OpenRecords }> {
  const pkg = grpc.loadPackageDefinition(loadFollowPackage()) as unknown as {
    svc: { follow: { v1: { FollowService: grpc.ServiceClientConstructor } } };
  };
  const client = new pkg.svc.follow.v1.FollowService(
    grpcTarget(leader, '--follow'),
    grpc.credentials.createInsecure(),
  ) as unknown as SnapshotClient;
  const refused = (why: string): FollowError =>
    new FollowError(
      `the snapshot from the leader at ${leader} is refused: ${why}; nothing was written`,
      undefined,
      'BAD_SNAPSHOT',
    );
  try {
    return await new Promise((resolve, reject) => {
      const s = client.StreamSnapshot({});
      let info: SnapshotInfo | undefined;
      const parts: Buffer[] = [];
      const open: OpenRecords = { transactions: [], events: [] };
      let received = 0;
      let recordBytes = 0;
      let settled = false;
      let idle: NodeJS.Timeout | undefined;
      const stop = (err: FollowError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(idle);
        s.cancel();
        reject(err);
      };
      const arm = (): void => {
        clearTimeout(idle);
        idle = setTimeout(
          () =>
            stop(
              refused(
                `no message for ${(options.idleMs ?? IDLE_MS) / 1000} s (${received} of ${info?.totalBytes ?? '?'} bytes received)`,
              ),
            ),
          options.idleMs ?? IDLE_MS,
        );
      };
      arm();
      s.on('data', (m: WireSnapshotChunk) => {
        if (settled) return;
        arm();
        if (!info) {
          try {
            info = parseSnapshotInfo(m.info);
          } catch (err) {
            return stop(refused((err as Error).message));
          }
          return;
        }
        if (m.info) return stop(refused('a second description arrived after the first'));
        const data = m.data ?? Buffer.alloc(0);
        const records = [...(m.open_transactions ?? []), ...(m.open_events ?? [])];
        if (records.length > 0) {
          if (received < info.totalBytes || data.byteLength > 0)
            return stop(refused('open block records arrived before the end of the snapshot bytes'));
          recordBytes += records.reduce((n, r) => n + r.length, 0);
          if (recordBytes > MAX_SNAPSHOT_BYTES)
            return stop(refused(`its open block records pass ${MAX_SNAPSHOT_BYTES} bytes`));
          open.transactions.push(...(m.open_transactions ?? []));
          open.events.push(...(m.open_events ?? []));
          return;
        }
        if (open.transactions.length + open.events.length > 0 && data.byteLength > 0)
          return stop(refused('snapshot bytes arrived after its open block records'));
        received += data.byteLength;
        if (received > info.totalBytes)
          return stop(refused(`it sends more than the ${info.totalBytes} bytes it announced`));
        parts.push(data);
      });
      s.on('error', (err: grpc.ServiceError) => {
        if (settled) return;
        const why =
          err.code === grpc.status.UNAVAILABLE ||
          err.code === grpc.status.UNIMPLEMENTED ||
          err.code === grpc.status.RESOURCE_EXHAUSTED
            ? err.details
            : `${err.code}: ${err.details ?? err.message}`;
        stop(
          new FollowError(
            `the leader at ${leader} serves no snapshot (--follow-from snapshot): ${why}; nothing was written`,
            undefined,
            'NO_SNAPSHOT',
          ),
        );
      });
      s.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(idle);
        if (!info) return reject(refused('the stream ended before its description'));
        if (received !== info.totalBytes)
          return reject(refused(`it is truncated: ${received} of the ${info.totalBytes} bytes it announced`));
        const bytes = Buffer.concat(parts, received);
        const digest = createHash('sha256').update(bytes).digest('hex');
        if (digest !== info.sha256)
          return reject(refused(`its bytes hash to ${digest}, not the announced SHA-256 ${info.sha256}`));
        resolve({ info, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), open });
      });
    });
  } finally {
    client.close();
  }
}
