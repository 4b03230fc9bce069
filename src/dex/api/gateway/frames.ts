/**
 * The local channel between gateway processes and the sequencer process (a Unix domain
 * socket): length-prefixed binary frames, written once per turn of the event loop per side
 * (all frames of the turn in one write). Integers are little-endian.
 *
 *   frame   = len u32 (bytes after this field) || body
 *
 *   request (gateway -> sequencer), one per order, cancel or mass cancel:
 *     id u32 || kind u8 (1 order, 2 cancel, 4 mass cancel; + 0x80: answer as gRPC SubmitTx)
 *     || signature_valid u8 (0/1) || nonce u64
 *     || from_len u8 || from (ASCII: the client's IP address, for the node's fair share)
 *     || payload (the order book wire payload, src/dex/engine/codec.ts: "DX" 01 kind Borsh || sig)
 *
 *   reply (sequencer -> gateway), one per request, same id:
 *     id u32 || type u8
 *     type 0 (refused):  status u16 || code_len u8 || code (ASCII) || message (UTF-8, rest)
 *     type 3 (refused as a replay of what the sequencer has): as type 0 (gRPC: ALREADY_EXISTS)
 *     type 1 (applied):  tick_number u64 || tick_timestamp_ms u64 || merkle_root [32]
 *                        || continuum_sequence u64 || tx_hash [32] || rest (UTF-8 JSON object:
 *                        the answer's fields other than the receipt)
 *     type 2 (applied, a request with the 0x80 bit): SubmitTxResponse (protobuf, the
 *                        svc.chain.v1 answer with the stored record: docs/chain.md "gRPC")
 *
 * A batch (POST /orders/batch) is one frame of kind 3 holding request frames: batch-frames.ts.
 *
 * The gateway knows the order id and owner of each request, so with an applied reply it
 * has every field of the receipt (docs/signing.md) and signs it itself.
 */

export const KIND_ORDER = 1;
export const KIND_CANCEL = 2;
export const KIND_CANCEL_ALL = 4;
export const REPLY_REFUSED = 0;
export const REPLY_APPLIED = 1;
export const REPLY_SUBMIT_TX = 2;
const REPLY_REFUSED_REPLAY = 3;
/** Set in a request's kind byte: the sequencer answers with REPLY_SUBMIT_TX (the gRPC order entry). */
const GRPC_ANSWER = 0x80;
/** A frame above this is a broken peer: the channel is closed. */
export const MAX_FRAME_BYTES = 1 << 20;

const REQUEST_HEAD = 4 + 4 + 1 + 1 + 8 + 1;
/** Longest client address a request frame carries (an IPv6 text form is at most 45). */
const MAX_FROM = 64;
const APPLIED_HEAD = 4 + 4 + 1 + 8 + 8 + 32 + 8 + 32;

export interface ChannelRequest {
  id: number;
  kind: typeof KIND_ORDER | typeof KIND_CANCEL | typeof KIND_CANCEL_ALL;
  signatureValid: boolean;
  nonce: bigint;
  /** The client's address ('' when unknown). */
  from: string;
  payload: Uint8Array;
  /** Answer as gRPC SubmitTx (REPLY_SUBMIT_TX) instead of the receipt's fields. */
  grpc?: boolean;
}

export interface AppliedReply {
  type: typeof REPLY_APPLIED;
  id: number;
  tickNumber: bigint;
  tickTimestampMs: bigint;
  merkleRoot: Uint8Array;
  continuumSequence: bigint;
  txHash: Uint8Array;
  /** JSON object text: the answer's fields beside the receipt. */
  rest: string;
}

export interface RefusedReply {
  type: typeof REPLY_REFUSED;
  id: number;
  status: number;
  code: string;
  message: string;
  /** A replay of a transaction the sequencer already has. */
  replay?: boolean;
}

/** The applied answer of a request sent with `grpc`: SubmitTxResponse bytes. */
export interface SubmitTxReply {
  type: typeof REPLY_SUBMIT_TX;
  id: number;
  response: Uint8Array;
}

export type ChannelReply = AppliedReply | RefusedReply | SubmitTxReply;

/**
 * A reply to a request sent without `grpc`: applied or refused. A SubmitTx answer there is a
 * broken peer's, and reads as an internal refusal.
 */
export function httpReply(r: ChannelReply): AppliedReply | RefusedReply {
  if (r.type !== REPLY_SUBMIT_TX) return r;
  return {
    type: REPLY_REFUSED,
    id: r.id,
    status: 500,
    code: 'INTERNAL',
    message: 'the node answered in the wrong form',
  };
}

export function encodeRequest(r: ChannelRequest): Buffer {
  const from = Buffer.from(r.from, 'latin1').subarray(0, MAX_FROM);
  const b = Buffer.allocUnsafe(REQUEST_HEAD + from.length + r.payload.length);
  b.writeUInt32LE(b.length - 4, 0);
  b.writeUInt32LE(r.id, 4);
  b[8] = r.grpc === true ? r.kind | GRPC_ANSWER : r.kind;
  b[9] = r.signatureValid ? 1 : 0;
  b.writeBigUInt64LE(r.nonce, 10);
  b[18] = from.length;
  b.set(from, REQUEST_HEAD);
  b.set(r.payload, REQUEST_HEAD + from.length);
  return b;
}

/** `frame` is one whole frame (length prefix included). The payload is copied out. */
export function decodeRequest(frame: Buffer): ChannelRequest {
  if (frame.length < REQUEST_HEAD) throw new Error('channel: request frame too short');
  const kind = frame[8]! & ~GRPC_ANSWER;
  if (kind !== KIND_ORDER && kind !== KIND_CANCEL && kind !== KIND_CANCEL_ALL) {
    throw new Error(`channel: unknown request kind ${kind}`);
  }
  const fromEnd = REQUEST_HEAD + frame[18]!;
  if (frame[18]! > MAX_FROM || frame.length < fromEnd)
    throw new Error('channel: request frame too short for its address');
  return {
    id: frame.readUInt32LE(4),
    kind,
    signatureValid: frame[9] === 1,
    nonce: frame.readBigUInt64LE(10),
    from: frame.toString('latin1', REQUEST_HEAD, fromEnd),
    payload: new Uint8Array(frame.subarray(fromEnd)), // a copy: the sequencer keeps it
    grpc: (frame[8]! & GRPC_ANSWER) !== 0,
  };
}

export function encodeApplied(r: Omit<AppliedReply, 'type'>): Buffer {
  const restLen = Buffer.byteLength(r.rest);
  const b = Buffer.allocUnsafe(APPLIED_HEAD + restLen);
  b.writeUInt32LE(b.length - 4, 0);
  b.writeUInt32LE(r.id, 4);
  b[8] = REPLY_APPLIED;
  b.writeBigUInt64LE(r.tickNumber, 9);
  b.writeBigUInt64LE(r.tickTimestampMs, 17);
  b.set(r.merkleRoot, 25);
  b.writeBigUInt64LE(r.continuumSequence, 57);
  b.set(r.txHash, 65);
  b.write(r.rest, APPLIED_HEAD, 'utf8');
  return b;
}

export function encodeSubmitTxReply(id: number, response: Uint8Array): Buffer {
  const b = Buffer.allocUnsafe(4 + 4 + 1 + response.length);
  b.writeUInt32LE(b.length - 4, 0);
  b.writeUInt32LE(id, 4);
  b[8] = REPLY_SUBMIT_TX;
  b.set(response, 9);
  return b;
}

export function encodeRefused(r: Omit<RefusedReply, 'type'>): Buffer {
  const code = Buffer.from(r.code, 'latin1').subarray(0, 255);
  const msgLen = Buffer.byteLength(r.message);
  const b = Buffer.allocUnsafe(4 + 4 + 1 + 2 + 1 + code.length + msgLen);
  b.writeUInt32LE(b.length - 4, 0);
  b.writeUInt32LE(r.id, 4);
  b[8] = r.replay === true ? REPLY_REFUSED_REPLAY : REPLY_REFUSED;
  b.writeUInt16LE(r.status, 9);
  b[11] = code.length;
  b.set(code, 12);
  b.write(r.message, 12 + code.length, 'utf8');
  return b;
}

export function decodeReply(frame: Buffer): ChannelReply {
  const id = frame.readUInt32LE(4);
  const type = frame[8];
  if (type === REPLY_REFUSED || type === REPLY_REFUSED_REPLAY) {
    const codeLen = frame[11]!;
    return {
      type: REPLY_REFUSED,
      id,
      status: frame.readUInt16LE(9),
      code: frame.toString('latin1', 12, 12 + codeLen),
      message: frame.toString('utf8', 12 + codeLen),
      ...(type === REPLY_REFUSED_REPLAY ? { replay: true } : {}),
    };
  }
  if (type === REPLY_SUBMIT_TX) return { type, id, response: new Uint8Array(frame.subarray(9)) };
  if (type !== REPLY_APPLIED || frame.length < APPLIED_HEAD)
    throw new Error(`channel: bad reply frame (type ${type}, ${frame.length} bytes)`);
  return {
    type,
    id,
    tickNumber: frame.readBigUInt64LE(9),
    tickTimestampMs: frame.readBigUInt64LE(17),
    merkleRoot: new Uint8Array(frame.subarray(25, 57)),
    continuumSequence: frame.readBigUInt64LE(57),
    txHash: new Uint8Array(frame.subarray(65, 97)),
    rest: frame.toString('utf8', APPLIED_HEAD),
  };
}

/**
 * Cuts a byte stream into whole frames (length prefix included). Throws on a frame above
 * MAX_FRAME_BYTES (the caller closes the channel).
 */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer, onFrame: (frame: Buffer) => void): void {
    let buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    let off = 0;
    while (buf.length - off >= 4) {
      const len = buf.readUInt32LE(off);
      if (len > MAX_FRAME_BYTES) throw new Error(`channel: frame of ${len} bytes is above the limit`);
      if (buf.length - off - 4 < len) break;
      onFrame(buf.subarray(off, off + 4 + len));
      off += 4 + len;
    }
    buf = buf.subarray(off);
    // Keep a copy of a small tail, not a view pinning the whole chunk.
    this.buf = buf.length === 0 ? Buffer.alloc(0) : Buffer.from(buf);
  }
}

/** Frames queued during one turn, written together (one write per turn). */
export class TurnWriter {
  private queued: Buffer[] = [];
  private scheduled = false;

  constructor(private readonly write: (data: Buffer) => void) {}

  push(frame: Buffer): void {
    this.queued.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    const q = this.queued;
    this.queued = [];
    if (q.length > 0) this.write(q.length === 1 ? q[0]! : Buffer.concat(q));
  }
}
