/**
 * One WebSocket text frame per message (RFC 6455 5.2): a server frame is unmasked, so the
 * same bytes go to every client. The hub encodes a message's JSON once, frames it once here,
 * and writes that buffer to each subscriber's socket: 1,000 subscribers cost one encode and
 * one frame, not 1,000.
 */

/** FIN + opcode 1 (text), unmasked, with the payload's length; the JSON's UTF-8 bytes after it. */
export function textFrame(json: string): Buffer {
  const len = Buffer.byteLength(json, 'utf8');
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + len);
  out[0] = 0x81;
  if (len < 126) {
    out[1] = len;
  } else if (len < 65536) {
    out[1] = 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  out.write(json, head, 'utf8');
  return out;
}
