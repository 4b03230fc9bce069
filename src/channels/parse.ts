/**
 * The strict parser of client messages (docs/chain.md "Channels"): a text frame in, a
 * request or a refusal (code + message, and the request's id when it had a usable one) out.
 * It never throws, whatever the input: every field is checked for presence, type, form and
 * range, and unknown fields are refused, so a typo is an answer rather than a silent default.
 */
import { fromBase58Key, toBase58Key } from '../crypto/index.js';
import { UUID_RE } from '../core/index.js';
import { clip } from '../wire/index.js';
import type { ClientRequest } from './interface.js';
import { MAX_ID_CHARS, MAX_POSITION, type RefusalCode } from './protocol.js';

export type Parsed =
  | { ok: true; request: ClientRequest }
  | { ok: false; id: string | number | null; code: RefusalCode; message: string };

const ID_RE = /^[\x21-\x7e]+$/;
const ALLOWED: Record<string, readonly string[]> = {
  unsubscribe: ['op', 'id'],
  blocks: ['op', 'id', 'channel', 'from_height'],
  orders: ['op', 'id', 'channel', 'owner', 'from_sequence'],
  book: ['op', 'id', 'channel', 'market_id'],
};

function refuse(id: string | number | null, code: RefusalCode, message: string): Parsed {
  return { ok: false, id, code, message };
}

function idOf(v: unknown): string | number | undefined {
  if (typeof v === 'string') return v.length >= 1 && v.length <= MAX_ID_CHARS && ID_RE.test(v) ? v : undefined;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  return undefined;
}

/** A position (from_height, from_sequence): a JSON integer 1..2^53-1. */
function position(
  name: string,
  v: unknown,
): { ok: true; value: number } | { ok: false; code: RefusalCode; message: string } {
  if (typeof v !== 'number') return { ok: false, code: 'bad_param', message: `${name} must be a JSON integer` };
  if (!Number.isFinite(v) || v < 1 || v > MAX_POSITION)
    return { ok: false, code: 'out_of_range', message: `${name} must be 1..${MAX_POSITION}` };
  if (!Number.isInteger(v)) return { ok: false, code: 'bad_param', message: `${name} must be an integer` };
  return { ok: true, value: v };
}

function unknownField(obj: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) return k;
  return undefined;
}

/** Parse one client text message. Never throws. */
export function parseClientMessage(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse(null, 'malformed_json', 'the message is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return refuse(null, 'bad_message', 'the message must be a JSON object');
  const obj = value as Record<string, unknown>;
  const id = idOf(obj.id);
  if (id === undefined)
    return refuse(
      null,
      'bad_message',
      `id must be 1..${MAX_ID_CHARS} printable ASCII characters or an integer 0..${MAX_POSITION}`,
    );
  const op = obj.op;
  if (op !== 'subscribe' && op !== 'unsubscribe')
    return refuse(
      id,
      'unknown_op',
      typeof op === 'string'
        ? `unknown op '${clip(op)}' (subscribe, unsubscribe)`
        : 'op must be "subscribe" or "unsubscribe"',
    );
  if (op === 'unsubscribe') {
    const extra = unknownField(obj, ALLOWED.unsubscribe!);
    if (extra !== undefined) return refuse(id, 'bad_message', `unknown field '${clip(extra)}'`);
    return { ok: true, request: { op, id } };
  }
  const channel = obj.channel;
  if (channel !== 'blocks' && channel !== 'orders' && channel !== 'book') {
    return refuse(
      id,
      'unknown_channel',
      typeof channel === 'string'
        ? `unknown channel '${clip(channel)}' (blocks, orders, book)`
        : 'channel must be "blocks", "orders" or "book"',
    );
  }
  const extra = unknownField(obj, ALLOWED[channel]!);
  if (extra !== undefined) return refuse(id, 'bad_message', `unknown field '${clip(extra)}' for channel ${channel}`);
  switch (channel) {
    case 'blocks': {
      if (obj.from_height === undefined) return { ok: true, request: { op, id, channel } };
      const p = position('from_height', obj.from_height);
      if (!p.ok) return refuse(id, p.code, p.message);
      return { ok: true, request: { op, id, channel, fromHeight: p.value } };
    }
    case 'orders': {
      if (typeof obj.owner !== 'string')
        return refuse(id, 'bad_param', 'owner must be a Base58 string of a 32-byte key');
      let owner: string;
      try {
        owner = toBase58Key(fromBase58Key(obj.owner, 'owner'));
      } catch (err) {
        return refuse(id, 'bad_param', (err as Error).message);
      }
      if (obj.from_sequence === undefined) return { ok: true, request: { op, id, channel, owner } };
      const p = position('from_sequence', obj.from_sequence);
      if (!p.ok) return refuse(id, p.code, p.message);
      return { ok: true, request: { op, id, channel, owner, fromSequence: p.value } };
    }
    case 'book': {
      if (typeof obj.market_id !== 'string' || !UUID_RE.test(obj.market_id))
        return refuse(id, 'bad_param', 'market_id must be a lowercase UUID');
      return { ok: true, request: { op, id, channel, marketId: obj.market_id } };
    }
  }
}
