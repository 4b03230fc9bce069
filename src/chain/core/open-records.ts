/**
 * The stored records of the block still open at a snapshot's tick T (its batches up to T),
 * which a full node started from that snapshot (src/follow/snapshot-bootstrap.ts) cannot
 * derive, having no tick before T: without them it would produce that block with only its
 * batches after T. The leader reads them (the first rows of that height: later batches
 * have higher batch indexes), the follower checks them against the ids the snapshot's
 * builder state lists for that block and derives every key of docs/storage.md "Chain node"
 * itself (chain-tx, chain-seq, chain-mkt, chain-ev, and the event ordinals of chain-evn and
 * chain-evm, counted back from the builder's ordinals at T). The block's market creations
 * travel in `transactions` too (the wire has one list of entries), in id order with its
 * transactions; the builder state's id lists say which is which. Their content is the leader's word, like
 * the snapshot; the block detail digest compared once the block is produced checks it.
 */
import type { BuilderState } from './builder.js';
import { heightKey, recordKey, u64Key, parseId } from './ids.js';
import type { ExplorerEvent, OpenRecords } from './interface.js';
import { parseRecordJson } from '../../wire/index.js';
import type { ChainOp, ChainStore } from './store.js';

/** The open block's records at the snapshot's tick (none when no block was open). */
export async function readOpenRecords(store: ChainStore, builder: BuilderState): Promise<OpenRecords> {
  const open = builder.open;
  if (!open) return { transactions: [], events: [] };
  const range = { gte: heightKey(open.height), lt: heightKey(open.height + 1) };
  const marketIds = open.marketIds ?? [];
  const [txRows, marketRows, events] = await Promise.all([
    open.transactionIds.length > 0 ? store.txs.iterator({ ...range, limit: open.transactionIds.length }).all() : [],
    marketIds.length > 0 ? store.markets.iterator({ ...range, limit: marketIds.length }).all() : [],
    open.eventIds.length > 0 ? store.events.values({ ...range, limit: open.eventIds.length }).all() : [],
  ]);
  const entries = [...txRows, ...marketRows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { transactions: entries.map(([, json]) => json), events };
}

/** The store operations of the open block's records; throws naming the first record that does not fit the builder state. */
export function openRecordOps(store: ChainStore, builder: BuilderState, records: OpenRecords): ChainOp[] {
  const open = builder.open;
  const ops: ChainOp[] = [];
  store.putRecordsFormat(ops);
  const transactionIds = new Set(open?.transactionIds ?? []);
  const marketIds = new Set(open?.marketIds ?? []);
  const want = { entries: transactionIds.size + marketIds.size, events: open?.eventIds ?? [] };
  if (records.transactions.length !== want.entries || records.events.length !== want.events.length) {
    throw new Error(
      `the open block's records are ${records.transactions.length} transactions and market creations and ${records.events.length} events; its builder state lists ${want.entries} and ${want.events.length}`,
    );
  }
  if (!open) return ops;
  const keyOf = (id: string, what: string): string => {
    const p = parseId(id, what);
    if (typeof p === 'string' || p.height !== open.height)
      throw new Error(`${what} ${id} is not of the open block ${open.height}`);
    return recordKey(p.height, p.batch, p.index);
  };
  let previous = '';
  records.transactions.forEach((json, i) => {
    const t = parseRecordJson<{ id: unknown; continuum_sequence: unknown }>(json);
    const id = String(t.id);
    const isTransaction = transactionIds.has(id);
    if (!isTransaction && !marketIds.has(id))
      throw new Error(`open block entry ${i} is ${id}, which its builder state does not list`);
    if (typeof t.continuum_sequence !== 'bigint') throw new Error(`open block entry ${id} has no continuum_sequence`);
    const key = keyOf(id, 'transaction');
    if (key <= previous) throw new Error(`open block entry ${id} is out of id order (or repeated)`);
    previous = key;
    if (isTransaction) {
      store.putText(ops, store.txs, key, json);
      store.putText(ops, store.seqs, u64Key(t.continuum_sequence), key);
    } else {
      store.putText(ops, store.markets, key, json);
    }
  });
  // Ordinals handed out at T end with the open block's events: count them back.
  const perMarket = new Map(Object.entries(builder.marketEvents));
  const ordinals: Array<{ global: number; market: number }> = [];
  for (let i = records.events.length - 1; i >= 0; i--) {
    const m = open.eventMarkets[i]!;
    const n = perMarket.get(m) ?? 0;
    if (n < 1) throw new Error(`open block event ${want.events[i]}: no ordinal left in market ${m}`);
    perMarket.set(m, n - 1);
    ordinals[i] = { global: builder.events - (records.events.length - 1 - i), market: n };
  }
  records.events.forEach((json, i) => {
    const e = parseRecordJson<ExplorerEvent>(json);
    if (e.id !== want.events[i] || e.market_id !== open.eventMarkets[i])
      throw new Error(
        `open block event ${i} is ${String(e.id)} of market ${String(e.market_id)}, not ${want.events[i]} of ${open.eventMarkets[i]}`,
      );
    store.putText(ops, store.events, keyOf(e.id, 'event'), json);
    store.putText(ops, store.eventsByOrdinal, u64Key(ordinals[i]!.global), json);
    store.putText(ops, store.eventsByMarket, `${e.market_id}:${u64Key(ordinals[i]!.market)}`, json);
  });
  return ops;
}
