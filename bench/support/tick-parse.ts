/**
 * Minimal reader of an encoded Tick for benchmarks: the tick number, timestamp, VDF
 * iterations and the tx_hash of each of its transactions, without decoding the rest (keeps the load generator light).
 */

function varint(buf: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    const b = buf[pos++]!;
    v += (b & 0x7f) * mul;
    mul *= 128;
    if (b < 0x80) return [v, pos];
  }
}

function skip(buf: Uint8Array, pos: number, wt: number): number {
  if (wt === 0) return varint(buf, pos)[1];
  if (wt === 1) return pos + 8;
  if (wt === 5) return pos + 4;
  const [len, p] = varint(buf, pos);
  return p + len;
}

export function parseTickHashes(buf: Uint8Array): {
  tickNumber: number;
  timestamp: number;
  iterations: number;
  hashes: string[];
} {
  let pos = 0;
  let tickNumber = 0;
  let timestamp = 0;
  let iterations = 0;
  const hashes: string[] = [];
  while (pos < buf.length) {
    const [tag, p] = varint(buf, pos);
    pos = p;
    const field = tag >>> 3;
    const wt = tag & 7;
    if (field === 1 && wt === 0) {
      [tickNumber, pos] = varint(buf, pos);
    } else if (field === 5 && wt === 0) {
      [timestamp, pos] = varint(buf, pos);
    } else if (field === 2 && wt === 2) {
      const [len, start] = varint(buf, pos);
      const end = start + len;
      let q = start;
      while (q < end) {
        const [t, q2] = varint(buf, q);
        if (t === ((4 << 3) | 0)) [iterations, q] = varint(buf, q2);
        else q = skip(buf, q2, t & 7);
      }
      pos = end;
    } else if (field === 3 && wt === 2) {
      const [len, start] = varint(buf, pos);
      const end = start + len;
      let q = start;
      while (q < end) {
        const [t, q2] = varint(buf, q);
        q = q2;
        if (t >>> 3 === 3 && (t & 7) === 2) {
          const [l, s] = varint(buf, q);
          hashes.push(Buffer.from(buf.buffer, buf.byteOffset + s, l).toString('latin1'));
          q = s + l;
        } else q = skip(buf, q, t & 7);
      }
      pos = end;
    } else pos = skip(buf, pos, wt);
  }
  return { tickNumber, timestamp, iterations, hashes };
}

/** tx_hash strings of a SubmitBatchResponse, '' for failed items. */
export function parseBatchHashes(buf: Uint8Array): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [, p] = varint(buf, pos);
    const [len, start] = varint(buf, p);
    const end = start + len;
    let q = start;
    let hash = '';
    while (q < end) {
      const [t, q2] = varint(buf, q);
      q = q2;
      if (t >>> 3 === 3 && (t & 7) === 2) {
        const [l, s] = varint(buf, q);
        hash = Buffer.from(buf.buffer, buf.byteOffset + s, l).toString('latin1');
        q = s + l;
      } else q = skip(buf, q, t & 7);
    }
    out.push(hash);
    pos = end;
  }
  return out;
}
