/**
 * Strict decoders of the svc.follow.v1.FollowService requests (proto/svc/follow/v1/follow.proto),
 * on the reader every other service uses (src/wire/proto-reader.ts, docs/api.md "Request
 * decoding"). They never throw: malformed bytes (truncated or over-long varints, field 0,
 * undefined wire types, from_height sent as bytes) come back as `{ malformed }`, which the
 * service answers with INVALID_ARGUMENT; grpc-js would turn a throwing deserializer into INTERNAL.
 *
 *   StreamBlockRootsRequest { uint64 from_height = 1; }   (above 2^53 - 1 refused: no such block)
 *   StreamSnapshotRequest   { }
 */
import { ProtoReader, VARINT, WireError, expectWireType } from '../wire/index.js';
import type { Malformed } from '../sequencer/api/index.js';

function guarded<T>(message: string, decode: () => T | Malformed): T | Malformed {
  try {
    return decode();
  } catch (err) {
    if (err instanceof WireError) return { malformed: `malformed ${message}: ${err.message}` };
    throw err;
  }
}

/** from_height 0 and 1 both mean the first block. */
export function decodeStreamBlockRootsRequest(buf: Uint8Array): { fromHeight: number } | Malformed {
  return guarded('StreamBlockRootsRequest', () => {
    const r = new ProtoReader(buf);
    let from = 0n;
    while (!r.done) {
      const [field, wt] = r.tag();
      if (field === 1) {
        expectWireType('from_height', wt, VARINT);
        from = r.varint64();
      } else r.skip(wt);
    }
    if (from > BigInt(Number.MAX_SAFE_INTEGER))
      return { malformed: `from_height ${from} is above 2^53 - 1: no block has that height` };
    return { fromHeight: Math.max(1, Number(from)) };
  });
}

/** No fields; only valid encodings of unknown ones are allowed. */
export function decodeStreamSnapshotRequest(buf: Uint8Array): Record<string, never> | Malformed {
  return guarded('StreamSnapshotRequest', () => {
    const r = new ProtoReader(buf);
    while (!r.done) r.skip(r.tag()[1]);
    return {};
  });
}
