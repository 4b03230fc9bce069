/**
 * The gateway channel's batch frames (POST /orders/batch; frames.ts has the single ones).
 * A batch goes to the node process as ONE frame, so the node takes its items up in one
 * pass: they take consecutive places in the arrival line, and its fair share is judged for
 * the whole batch at once (src/dex/batch.ts). Integers are little-endian.
 *
 *   batch request (gateway -> node):
 *     len u32 || id u32 || kind u8 (3) || from_len u8 || from (ASCII) || count u8
 *     || count x item, each a whole request frame of frames.ts (len u32 first; its own id;
 *        its from empty: the batch's from stands for all)
 *
 *   batch reply (node -> gateway), the batch's id, sent before any item's reply:
 *     taken:   len u32 || id u32 || type u8 (2)          then one reply per item, by item id
 *     refused: a refused reply of frames.ts (the whole batch: nothing was taken, no item reply follows)
 */
import { decodeRequest, MAX_FRAME_BYTES, type ChannelRequest } from './frames.js';

export const KIND_BATCH = 3;
export const REPLY_TAKEN = 2;
/** Items per batch frame at most (count is a u8; the node's own limit, MAX_BATCH_ITEMS, is lower). */
const MAX_ITEMS = 255;
const MAX_FROM = 64;

export interface BatchRequest {
  id: number;
  from: string;
  items: ChannelRequest[];
}

/** Whether a whole frame (length prefix included) is a batch request. */
export function isBatchRequest(frame: Buffer): boolean {
  return frame.length > 8 && frame[8] === KIND_BATCH;
}

/** Whether a whole reply frame is a batch's "taken". */
export function isTakenReply(frame: Buffer): boolean {
  return frame.length === 9 && frame[8] === REPLY_TAKEN;
}

/** `items` are encoded request frames (frames.ts encodeRequest, from ''). */
export function encodeBatchRequest(id: number, from: string, items: Buffer[]): Buffer {
  if (items.length > MAX_ITEMS) throw new Error(`channel: a batch frame holds at most ${MAX_ITEMS} items`);
  const f = Buffer.from(from, 'latin1').subarray(0, MAX_FROM);
  const head = Buffer.allocUnsafe(4 + 4 + 1 + 1 + f.length + 1);
  let size = head.length;
  for (const it of items) size += it.length;
  if (size > MAX_FRAME_BYTES) throw new Error(`channel: a batch frame of ${size} bytes is above the limit`);
  head.writeUInt32LE(size - 4, 0);
  head.writeUInt32LE(id, 4);
  head[8] = KIND_BATCH;
  head[9] = f.length;
  head.set(f, 10);
  head[10 + f.length] = items.length;
  return Buffer.concat([head, ...items], size);
}

/** A whole batch frame; throws on one that does not hold together (the caller closes the channel). */
export function decodeBatchRequest(frame: Buffer): BatchRequest {
  if (frame.length < 11 || frame[9]! > MAX_FROM || frame.length < 11 + frame[9]!)
    throw new Error('channel: batch frame too short');
  const fromEnd = 10 + frame[9]!;
  const count = frame[fromEnd]!;
  const items: ChannelRequest[] = [];
  let off = fromEnd + 1;
  for (let i = 0; i < count; i++) {
    if (frame.length - off < 4) throw new Error('channel: batch frame too short for its items');
    const len = frame.readUInt32LE(off);
    if (frame.length - off - 4 < len) throw new Error('channel: batch item past the end of its frame');
    items.push(decodeRequest(frame.subarray(off, off + 4 + len)));
    off += 4 + len;
  }
  if (off !== frame.length) throw new Error('channel: bytes after the last batch item');
  return { id: frame.readUInt32LE(4), from: frame.toString('latin1', 10, fromEnd), items };
}

export function encodeTaken(id: number): Buffer {
  const b = Buffer.allocUnsafe(9);
  b.writeUInt32LE(5, 0);
  b.writeUInt32LE(id, 4);
  b[8] = REPLY_TAKEN;
  return b;
}
