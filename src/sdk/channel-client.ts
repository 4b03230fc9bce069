/**
 * A client of the node's live channels (WS /ws on the rpc port; docs/chain.md "Channels",
 * docs/channels.asyncapi.yaml) that resumes by itself, so its handlers see every message
 * once and in order across reconnects:
 *
 *   blocks  each height once, in order: on a reconnect it subscribes again from the height
 *           after the last one delivered (the node replays the stored blocks from there);
 *   orders  each of an owner's events once, in sequence order: on a reconnect from the
 *           sequence after the last one delivered;
 *   book    a market's levels: the snapshot, then the deltas folded in; on a reconnect, or a
 *           delta that does not start at the previous `seq` + 1 (its `first_seq` when the
 *           node folded several for a client that was behind, else its `seq`), it
 *           subscribes again for a new snapshot (the handler is told it is one). Each
 *           snapshot and delta carries the book's checksum after it (book-checksum.ts):
 *           the client keeps the same sum as it folds, and on a mismatch it tells
 *           `onError` (code `checksum_mismatch`), does not hand that book to the handler,
 *           and subscribes again for a new snapshot (at once; after a backoff when the
 *           mismatches follow one another).
 *
 * A message before the next expected position is dropped (a duplicate); one after it (a
 * gap, which the node never sends on one socket) makes the client subscribe again from the
 * expected position. Data of a subscription being replaced is ignored until the node has
 * confirmed the new one (`subscribed`), so nothing of the old one leaks in.
 *
 * The socket is reopened after any close but the user's, with a backoff (250 ms doubling to
 * 5 s), and closed when nothing (not even a heartbeat) came for 3 heartbeat periods.
 * u64 values are exact (numbers when safe integers, else bigints: exact-json.ts).
 * Browser-safe: the default socket is the global WebSocket; Node passes a `dial` (e.g. over
 * the `ws` package).
 */
import { BookChecksum } from '../core/browser-safe.js';
import { parseExactJson, type U64 } from './exact-json.js';

/** What the client needs of a socket: send text, close; it is told open, text, close. */
export interface ChannelConnection {
  send(text: string): void;
  close(): void;
}
export interface ChannelConnectionEvents {
  open(): void;
  message(text: string): void;
  close(code: number, reason: string): void;
}
export type ChannelDial = (url: string, events: ChannelConnectionEvents) => ChannelConnection;

/** A dial over a WebSocket constructor (the browser's by default). */
export function webSocketDial(Ctor: typeof WebSocket = globalThis.WebSocket): ChannelDial {
  if (Ctor === undefined) throw new Error('no global WebSocket here: pass a dial (e.g. over the ws package)');
  return (url, events) => {
    const ws = new Ctor(url);
    ws.onopen = () => events.open();
    ws.onmessage = (e: MessageEvent) => events.message(String(e.data));
    ws.onclose = (e: CloseEvent) => events.close(e.code, e.reason);
    ws.onerror = () => undefined; // a close follows
    return { send: (text) => ws.send(text), close: () => ws.close() };
  };
}

export type OrderEventKind = 'accepted' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'refused';

export interface BlockMessage {
  type: 'block';
  channel: 'blocks';
  height: number;
  tick: number;
  /** Exactly GET /blocks/:height's object. */
  detail: Record<string, unknown>;
}

export interface ChannelFill {
  trade_id: U64;
  price: U64;
  quantity: U64;
  role: 'maker' | 'taker';
}

export interface OrderMessage {
  type: 'order';
  channel: 'orders';
  owner: string;
  seq: number;
  event: OrderEventKind;
  tick: number;
  continuum_sequence: U64;
  market_id?: string;
  order_id: U64;
  side?: 'Buy' | 'Sell';
  price?: U64;
  quantity?: U64;
  expiry?: U64;
  remaining?: U64;
  filled_quantity?: U64;
  fills?: ChannelFill[];
  cancelled_quantity?: U64;
  reason?: 'cancel' | 'self_trade' | 'cancel_all';
  kind?: 'order' | 'cancel' | 'cancel_all';
  request_id?: U64; // reason cancel_all: the mass cancel's request_id
  base_mint?: string;
  quote_mint?: string;
  code?: string;
  message?: string;
}

/** A level as sent: [price, quantity, orders]; in a delta, quantity 0 and orders 0 = gone. */
export type LevelRow = [price: U64, quantity: U64, orders: number];

export interface BookMessage {
  type: 'snapshot' | 'delta';
  channel: 'book';
  market_id: string;
  seq: number;
  tick: number;
  /** On a delta that folds several (the node does so for a client that is behind): the first seq it covers. */
  first_seq?: number;
  /** The book's checksum right after this message: 16 hex digits (docs/chain.md "Book checksum"). */
  checksum: string;
  bids: LevelRow[];
  asks: LevelRow[];
}

/** A market's levels as folded so far: best first. */
export interface BookLevels {
  marketId: string;
  seq: number;
  tick: number;
  /** The checksum of these levels, equal to the node's. */
  checksum: string;
  bids: LevelRow[];
  asks: LevelRow[];
}

export interface ChannelError {
  /**
   * The node's error code (docs/chain.md), `closed` with the socket's close code, or
   * `checksum_mismatch` (a book whose folded levels do not give the message's checksum,
   * with the market and the message's seq; the client subscribes again for a snapshot).
   */
  code: string;
  message: string;
  closeCode?: number;
  marketId?: string;
  seq?: number;
}

export interface ChannelClientOptions {
  /** ws://host:port/ws (the rpc port). */
  url: string;
  dial?: ChannelDial;
  /** First reconnect delay; doubles to maxReconnectMs. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** Told of every refusal, every close and every book checksum mismatch (the client recovers by itself). */
  onError?: (e: ChannelError) => void;
  /** Told each time a socket is open and welcomed (after a reconnect too). */
  onOpen?: (welcome: { tick: number; height: number }) => void;
}

export interface ChannelSubscription {
  unsubscribe(): void;
}

type Kind = 'blocks' | 'orders' | 'book';

interface Sub {
  kind: Kind;
  key: string;
  /** Next position to deliver (blocks, orders): undefined until the node says where it starts. */
  next: number | undefined;
  /** Id of the node-side subscription now wanted; data counts only once it is confirmed. */
  wireId: number;
  confirmed: boolean;
  deliver(msg: Record<string, unknown>): void;
  /** book: the folded levels with each one's checksum term, and their checksum. */
  levels?: { bids: Map<string, Held>; asks: Map<string, Held>; seq: number; tick: number; sum: BookChecksum };
  /** book: checksum mismatches in a row, and the timer of a delayed re-subscribe. */
  mismatches?: number;
  retry?: ReturnType<typeof setTimeout>;
}

interface Held {
  row: LevelRow;
  hash: bigint;
}

const keyOf = (kind: Kind, key: string) => `${kind}\u0000${key}`;

function cmp(a: U64, b: U64): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

export class ChannelClient {
  private readonly dial: ChannelDial;
  private readonly subs = new Map<string, Sub>();
  private readonly byWireId = new Map<number, Sub>();
  private conn: ChannelConnection | undefined;
  private open = false;
  private closedByUser = false;
  private nextWireId = 1;
  private backoffMs: number;
  private lastMessageAt = 0;
  private staleMs = 15_000;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  /** Sockets opened so far (1 + reconnects). */
  connections = 0;
  /** Book messages whose checksum did not match the folded levels (each one re-snapshots). */
  checksumMismatches = 0;

  constructor(private readonly options: ChannelClientOptions) {
    this.dial = options.dial ?? webSocketDial();
    this.backoffMs = options.reconnectMs ?? 250;
    this.watchdog = setInterval(() => {
      if (this.open && Date.now() - this.lastMessageAt > this.staleMs) this.conn?.close();
    }, 1_000);
    this.connect();
  }

  /** Blocks from `fromHeight` (stored ones first), or from the next one. */
  blocks(options: { fromHeight?: number }, onBlock: (m: BlockMessage) => void): ChannelSubscription {
    return this.add('blocks', '', options.fromHeight, (m) => onBlock(m as unknown as BlockMessage));
  }

  /** An owner's (Base58) order events from `fromSequence` (stored ones first), or from the next one. */
  orders(owner: string, options: { fromSequence?: number }, onEvent: (m: OrderMessage) => void): ChannelSubscription {
    return this.add('orders', owner, options.fromSequence, (m) => onEvent(m as unknown as OrderMessage));
  }

  /**
   * A market's levels: called with the folded levels after the snapshot and after each delta
   * whose checksum matches. Throws a TypeError for a market id that is not a lowercase UUID
   * (the node would refuse it: `bad_param`).
   */
  book(marketId: string, onBook: (levels: BookLevels, m: BookMessage) => void): ChannelSubscription {
    const sub = this.addSub('book', marketId, undefined, () => undefined);
    const sum = new BookChecksum(marketId);
    const lv = { bids: new Map<string, Held>(), asks: new Map<string, Held>(), seq: 0, tick: 0, sum };
    sub.levels = lv;
    sub.deliver = (raw) => {
      const m = raw as unknown as BookMessage;
      let problem: string | undefined;
      try {
        foldBook(lv, m);
        const mine = lv.sum.hex();
        if (mine !== m.checksum) problem = `the folded book's checksum is ${mine}, the message says ${m.checksum}`;
      } catch (err) {
        problem = `a level that cannot be folded: ${(err as Error).message}`;
      }
      if (problem !== undefined) return this.bookMismatch(sub, m, problem);
      sub.mismatches = 0;
      lv.seq = m.seq;
      lv.tick = m.tick;
      const sorted = (side: Map<string, Held>, desc: boolean) =>
        [...side.values()].map((h) => h.row).sort((a, b) => (desc ? -cmp(a[0], b[0]) : cmp(a[0], b[0])));
      const { seq, tick } = lv;
      const [bids, asks] = [sorted(lv.bids, true), sorted(lv.asks, false)];
      onBook({ marketId, seq, tick, checksum: m.checksum, bids, asks }, m);
    };
    this.subscribe(sub);
    return this.handle(sub);
  }

  /** Close for good (no reconnect). */
  close(): void {
    this.closedByUser = true;
    clearInterval(this.watchdog);
    for (const sub of this.subs.values()) clearTimeout(sub.retry);
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.conn?.close();
  }

  /** Drop the socket now as if the network failed (the client reconnects and resumes). */
  dropConnection(): void {
    this.conn?.close();
  }

  // ---------------------------------------------------------------- subscriptions

  private add(
    kind: Kind,
    key: string,
    from: number | undefined,
    deliver: (m: Record<string, unknown>) => void,
  ): ChannelSubscription {
    const sub = this.addSub(kind, key, from, deliver);
    this.subscribe(sub);
    return this.handle(sub);
  }

  private addSub(
    kind: Kind,
    key: string,
    from: number | undefined,
    deliver: (m: Record<string, unknown>) => void,
  ): Sub {
    const k = keyOf(kind, key);
    if (this.subs.has(k)) throw new Error(`already subscribed to ${kind} ${key}`);
    const sub: Sub = { kind, key, next: from, wireId: 0, confirmed: false, deliver };
    this.subs.set(k, sub);
    return sub;
  }

  private handle(sub: Sub): ChannelSubscription {
    return {
      unsubscribe: () => {
        if (this.subs.get(keyOf(sub.kind, sub.key)) !== sub) return;
        clearTimeout(sub.retry);
        this.subs.delete(keyOf(sub.kind, sub.key));
        this.byWireId.delete(sub.wireId);
        if (this.open) this.conn!.send(JSON.stringify({ op: 'unsubscribe', id: sub.wireId }));
      },
    };
  }

  /** (Re)subscribe on the open socket from the sub's next position. */
  private subscribe(sub: Sub): void {
    clearTimeout(sub.retry);
    sub.retry = undefined;
    if (!this.open) return;
    sub.wireId = this.nextWireId++;
    sub.confirmed = false;
    this.byWireId.set(sub.wireId, sub);
    const msg: Record<string, unknown> = { op: 'subscribe', id: sub.wireId, channel: sub.kind };
    if (sub.kind === 'blocks' && sub.next !== undefined) msg.from_height = sub.next;
    if (sub.kind === 'orders') {
      msg.owner = sub.key;
      if (sub.next !== undefined) msg.from_sequence = sub.next;
    }
    if (sub.kind === 'book') msg.market_id = sub.key;
    this.conn!.send(JSON.stringify(msg));
  }

  /** Replace a subscription on the open socket (a gap): unsubscribe, then subscribe from `next`. */
  private resubscribe(sub: Sub): void {
    if (!this.open) return;
    this.byWireId.delete(sub.wireId);
    this.conn!.send(JSON.stringify({ op: 'unsubscribe', id: sub.wireId }));
    this.subscribe(sub);
  }

  // ---------------------------------------------------------------- socket

  private connect(): void {
    if (this.closedByUser) return;
    this.connections++;
    this.conn = this.dial(this.options.url, {
      open: () => undefined, // the welcome message opens the session
      message: (text) => this.onMessage(text),
      close: (code, reason) => this.onClose(code, reason),
    });
  }

  private onClose(code: number, reason: string): void {
    this.open = false;
    this.conn = undefined;
    this.byWireId.clear();
    if (this.closedByUser) return;
    this.options.onError?.({ code: 'closed', message: reason || `socket closed (${code})`, closeCode: code });
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxReconnectMs ?? 5_000);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private onMessage(text: string): void {
    this.lastMessageAt = Date.now();
    let m: Record<string, unknown>;
    try {
      m = parseExactJson(text) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (m.type) {
      case 'welcome': {
        this.open = true;
        this.backoffMs = this.options.reconnectMs ?? 250;
        this.staleMs = 3 * Number(m.heartbeat_ms ?? 5_000);
        this.options.onOpen?.({ tick: Number(m.tick), height: Number(m.height) });
        for (const sub of this.subs.values()) this.subscribe(sub);
        return;
      }
      case 'subscribed': {
        const sub = this.byWireId.get(Number(m.id));
        if (sub === undefined || sub.wireId !== Number(m.id)) return;
        sub.confirmed = true;
        if (sub.next === undefined && sub.kind === 'blocks') sub.next = Number(m.from_height);
        if (sub.next === undefined && sub.kind === 'orders') sub.next = Number(m.from_sequence);
        return;
      }
      case 'error': {
        this.options.onError?.({ code: String(m.code), message: String(m.message) });
        return;
      }
      case 'block':
        return this.positioned(this.subs.get(keyOf('blocks', '')), Number(m.height), m);
      case 'order':
        return this.positioned(this.subs.get(keyOf('orders', String(m.owner))), Number(m.seq), m);
      case 'snapshot':
      case 'delta':
        return this.bookMessage(this.subs.get(keyOf('book', String(m.market_id))), m);
      default:
        return; // heartbeat, unsubscribed
    }
  }

  private positioned(sub: Sub | undefined, pos: number, m: Record<string, unknown>): void {
    if (sub === undefined || !sub.confirmed || sub.next === undefined) return;
    if (pos < sub.next) return; // a duplicate
    if (pos > sub.next) return this.resubscribe(sub); // a gap: read it again from the store
    sub.next = pos + 1;
    sub.deliver(m);
  }

  /**
   * A book message whose checksum does not match: report it, ignore the subscription's data
   * and subscribe again for a new snapshot, at once the first time, then after 250 ms
   * doubling to 5 s while mismatches follow one another (a node that keeps sending books
   * that do not add up is not asked again at the rate of its messages).
   */
  private bookMismatch(sub: Sub, m: BookMessage, problem: string): void {
    this.checksumMismatches++;
    const n = (sub.mismatches ?? 0) + 1;
    sub.mismatches = n;
    sub.confirmed = false;
    const message = `book ${sub.key} ${m.type} seq ${m.seq}: ${problem}; subscribing again for a new snapshot`;
    this.options.onError?.({ code: 'checksum_mismatch', message, marketId: sub.key, seq: m.seq });
    if (n === 1) return this.resubscribe(sub);
    const wireId = sub.wireId;
    sub.retry = setTimeout(
      () => {
        sub.retry = undefined;
        if (this.subs.get(keyOf(sub.kind, sub.key)) === sub && sub.wireId === wireId) this.resubscribe(sub);
      },
      Math.min(250 * 2 ** (n - 2), 5_000),
    );
  }

  private bookMessage(sub: Sub | undefined, m: Record<string, unknown>): void {
    if (sub === undefined || !sub.confirmed) return;
    const seq = Number(m.seq);
    if (m.type === 'delta') {
      // A delta covers first_seq..seq (first_seq only on deltas folded for a client that was behind).
      const first = m.first_seq === undefined ? seq : Number(m.first_seq);
      if (seq <= sub.levels!.seq) return;
      if (first !== sub.levels!.seq + 1) return this.resubscribe(sub); // a lost delta: new snapshot
    }
    sub.deliver(m);
  }
}

/**
 * Fold a book message into the held levels and their checksum (a snapshot replaces them).
 * A level is gone when its quantity and order count are both 0; a level with one of them 0,
 * or a value outside its type, throws (the caller treats it as a mismatch).
 */
function foldBook(lv: NonNullable<Sub['levels']>, m: BookMessage): void {
  if (m.type === 'snapshot') {
    lv.bids.clear();
    lv.asks.clear();
    lv.sum.clear();
  }
  for (const [code, side, rows] of [
    [0, lv.bids, m.bids],
    [1, lv.asks, m.asks],
  ] as const) {
    if (!Array.isArray(rows)) throw new RangeError(`${code === 0 ? 'bids' : 'asks'} is not a list`);
    for (const row of rows) {
      const price = BigInt(row[0]);
      const quantity = BigInt(row[1]);
      const orders = BigInt(row[2]);
      const key = price.toString();
      const old = side.get(key);
      if (old !== undefined) lv.sum.remove(old.hash);
      if (quantity === 0n && orders === 0n && m.type === 'delta') {
        side.delete(key);
        continue;
      }
      const hash = lv.sum.hash(code, price, quantity, orders);
      lv.sum.add(hash);
      side.set(key, { row, hash });
    }
  }
}
