/**
 * The orders channel's log and source: every owner's events (owner-events.ts) numbered with a
 * dense per-owner sequence from 1, stored in the node's LevelDB and replayable from any
 * sequence (docs/chain.md "Channels", docs/chain-internals.md "Owner sequences on disk", docs/storage.md):
 *
 *   chain-own   <owner Base58>:<seq, 16 hex>  -> the `order` message JSON, exactly as sent
 *   chain-ownc  <owner Base58>                -> the owner's event count (decimal)
 *
 * `record(applied)` numbers a tick's events and returns the LevelDB puts (on the database
 * the log was made with, src/db prefixed-put.ts); the caller writes them in the SAME atomic
 * batch as the tick's chain records, then calls `publish`. So the count stored for an owner
 * always matches the chain's stored head tick: after kill -9 both are the same prefix. At
 * start `load(headTick)` reads the counts; the ticks the node replays up to that head are
 * already in the log and are skipped (`record` returns nothing for them), later ones are
 * numbered from the stored counts. The numbering is a pure function of the ticks, so every
 * node, and the same node after any restart, gives the same sequence.
 */
import type { ChainOp } from '../chain/core/index.js';
import { encodeJson } from '../wire/index.js';
import { textPut, type Database } from '../db/index.js';
import type { AppliedTick } from '../dex/engine/index.js';
import { toBase58Key } from '../crypto/index.js';
import { textFrame } from './frame.js';
import type { ChannelItem, ResumableSource, Unsubscribe } from './interface.js';
import { ItemListeners } from './listeners.js';
import { ownerEventsOf, type OwnerEventBody } from './owner-events.js';

type TextSublevel = ReturnType<typeof textSublevel>;
function textSublevel(db: Database, name: string) {
  return db.sublevel<string, string>(name, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}

function seqKey(owner: string, seq: number): string {
  return `${owner}:${seq.toString(16).padStart(16, '0')}`;
}

/** The order message JSON of one numbered event. */
export function orderMessageJson(owner: string, seq: number, body: OwnerEventBody): string {
  return `{"type":"order","channel":"orders","owner":"${owner}","seq":${seq},${encodeJson(body).slice(1)}`;
}

export interface RecordedTick {
  ops: ChainOp[];
  items: Array<{ owner: string; item: ChannelItem }>;
}

export class OwnerLog implements ResumableSource {
  readonly events: TextSublevel;
  readonly counts: TextSublevel;
  /** Events numbered so far per owner (what is stored or about to be). */
  private readonly numbered = new Map<string, number>();
  /** Events published per owner (the head of each channel). */
  private readonly published = new Map<string, number>();
  private readonly listeners = new ItemListeners();
  /** Ticks up to this one are already in the log (stored before this start). */
  private storedTick = 0;

  constructor(db: Database) {
    this.events = textSublevel(db, 'chain-own');
    this.counts = textSublevel(db, 'chain-ownc');
  }

  /** Read the stored counts; `headTick` is the chain's stored head (chain-meta "head"). */
  async load(headTick: number): Promise<void> {
    this.storedTick = headTick;
    for await (const [owner, count] of this.counts.iterator()) {
      const n = Number(count);
      this.numbered.set(owner, n);
      this.published.set(owner, n);
    }
  }

  /** Number one applied tick's owner events; write `ops` with the tick's records, then `publish(items)`. */
  record(applied: AppliedTick): RecordedTick {
    const ops: ChainOp[] = [];
    const items: RecordedTick['items'] = [];
    if (applied.tick.tickNumber <= this.storedTick) return { ops, items };
    const touched = new Set<string>();
    for (const e of ownerEventsOf(applied)) {
      const owner = toBase58Key(e.owner);
      const seq = (this.numbered.get(owner) ?? 0) + 1;
      this.numbered.set(owner, seq);
      touched.add(owner);
      const json = orderMessageJson(owner, seq, e.body);
      ops.push(textPut(this.events, seqKey(owner, seq), json));
      items.push({ owner, item: { pos: seq, frame: textFrame(json) } });
    }
    for (const owner of touched) ops.push(textPut(this.counts, owner, String(this.numbered.get(owner))));
    return { ops, items };
  }

  /** Hand a stored tick's items to the live listeners, in order. */
  publish(items: RecordedTick['items']): void {
    for (const { owner, item } of items) {
      this.published.set(owner, item.pos);
      this.listeners.emit(owner, item);
    }
  }

  head(owner: string): number {
    return this.published.get(owner) ?? 0;
  }

  async *replay(owner: string, from: number, to: number): AsyncIterable<ChannelItem> {
    const chunk = 256;
    let next = from;
    while (next <= to) {
      const rows = await this.events.values({ gte: seqKey(owner, next), lte: seqKey(owner, to), limit: chunk }).all();
      for (const json of rows) yield { pos: next++, frame: textFrame(json) };
      if (rows.length < chunk) return;
    }
  }

  onItem(listener: (key: string, item: ChannelItem) => void): Unsubscribe {
    return this.listeners.add(listener);
  }
}
