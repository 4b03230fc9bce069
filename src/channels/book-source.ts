/**
 * The book channel's source: one mirror of levels per market (book-levels.ts), a sequence
 * per market, and the deltas of each applied tick, each encoded and framed once.
 *
 *   derive(applied)  fold the tick's level changes into the mirrors (at apply time, in tick
 *                    order) and return the deltas to publish: one per market whose levels
 *                    changed, with seq = the market's previous seq + 1
 *   publish(deltas)  hand them to the hub (the node does so at once: docs/chain.md "Channels")
 *   snapshot(id)     the mirror as one message whose seq is the last delta folded in; the
 *                    hub drops live deltas with seq <= it, so a snapshot taken between
 *                    derive and publish is not followed by a duplicate
 *
 * Every snapshot and delta carries `checksum`: the mirror's checksum right after it
 * (book-levels.ts, docs/chain.md "Book checksum"), kept as the mirror folds, so it is the
 * checksum of exactly the levels a client holds once it has folded that message.
 *
 * Sequences live in memory: they count the deltas since this node process started (a
 * snapshot after a restart can have a lower seq). A client only compares them within one
 * subscription, which a restart always ends (the socket closes), so nothing is lost.
 */
import { encodeJson } from '../wire/index.js';
import type { AppliedTick } from '../dex/engine/index.js';
import type { OrderBook } from '../dex/engine/index.js';
import { levelChangesOf } from './book-deltas.js';
import { levelsOfBook, MarketLevels, type LevelRow } from './book-levels.js';
import { textFrame } from './frame.js';
import type { BookDeltaRows, ChannelItem, SnapshotSource, Unsubscribe } from './interface.js';
import { ItemListeners } from './listeners.js';

interface MarketMirror {
  levels: MarketLevels;
  seq: number;
  snapshot?: { seq: number; tick: number; item: ChannelItem };
}

export interface BookDelta {
  marketId: string;
  item: ChannelItem;
}

function rowsJson(rows: LevelRow[]): string {
  return encodeJson(rows);
}

/**
 * A book delta message: `seq` its sequence; `firstSeq`, for deltas folded into one for a
 * client that is behind (coalesce.ts), the first sequence it covers (written only then);
 * `checksum` the book's after `seq`.
 */
export function bookDeltaJson(d: BookDeltaRows, seq: number, firstSeq = seq): string {
  const first = firstSeq === seq ? '' : `,"first_seq":${firstSeq}`;
  const head = `{"type":"delta","channel":"book","market_id":"${d.marketId}","seq":${seq},"tick":${d.tick}${first}`;
  return `${head},"checksum":"${d.checksum}","bids":${rowsJson(d.bids)},"asks":${rowsJson(d.asks)}}`;
}

export class BookSource implements SnapshotSource {
  private readonly markets = new Map<string, MarketMirror>();
  private readonly listeners = new ItemListeners();
  /** Last tick folded into the mirrors. */
  tick = 0;

  /** Seed from the engine's books (after it is restored and replayed), as of `tick`. */
  seed(books: Iterable<{ marketId: string; book: OrderBook }>, tick: number): void {
    for (const { marketId, book } of books) {
      const levels = new MarketLevels(marketId);
      const rows = levelsOfBook(book);
      for (const [p, q, n] of rows.bids) levels.set(0, p, q, n);
      for (const [p, q, n] of rows.asks) levels.set(1, p, q, n);
      this.markets.set(marketId, { levels, seq: 0 });
    }
    this.tick = tick;
  }

  has(marketId: string): boolean {
    return this.markets.has(marketId);
  }

  /** Fold one applied tick in; the deltas to publish once the tick is stored. */
  derive(applied: AppliedTick): BookDelta[] {
    const tick = applied.tick.tickNumber;
    this.tick = tick;
    const out: BookDelta[] = [];
    for (const [marketId, changes] of levelChangesOf(applied)) {
      let m = this.markets.get(marketId);
      if (m === undefined) {
        m = { levels: new MarketLevels(marketId), seq: 0 };
        this.markets.set(marketId, m);
      }
      const changed = m.levels.apply(changes.values());
      if (changed.bids.length === 0 && changed.asks.length === 0) continue;
      m.seq++;
      const book = { marketId, tick, checksum: m.levels.checksum(), bids: changed.bids, asks: changed.asks };
      out.push({ marketId, item: { pos: m.seq, frame: textFrame(bookDeltaJson(book, m.seq)), book } });
    }
    return out;
  }

  publish(deltas: readonly BookDelta[]): void {
    for (const d of deltas) this.listeners.emit(d.marketId, d.item);
  }

  /** The current levels of a market as one snapshot message (encoded once per seq and tick). */
  snapshot(marketId: string): ChannelItem | undefined {
    const m = this.markets.get(marketId);
    if (m === undefined) return undefined;
    if (m.snapshot?.seq === m.seq && m.snapshot.tick === this.tick) return m.snapshot.item;
    const rows = m.levels.rows();
    const head = `{"type":"snapshot","channel":"book","market_id":"${marketId}","seq":${m.seq},"tick":${this.tick}`;
    const levels = `"bids":${rowsJson(rows.bids)},"asks":${rowsJson(rows.asks)}`;
    const json = `${head},"checksum":"${m.levels.checksum()}",${levels}}`;
    const item = { pos: m.seq, frame: textFrame(json) };
    m.snapshot = { seq: m.seq, tick: this.tick, item };
    return item;
  }

  /** The mirror's checksum of a market now (tests). */
  checksum(marketId: string): string | undefined {
    return this.markets.get(marketId)?.levels.checksum();
  }

  /** The mirror's rows of a market (tests, the bench). */
  rows(marketId: string): { bids: LevelRow[]; asks: LevelRow[] } | undefined {
    return this.markets.get(marketId)?.levels.rows();
  }

  onItem(listener: (key: string, item: ChannelItem) => void): Unsubscribe {
    return this.listeners.add(listener);
  }
}
