/**
 * The stored records of the block still open at a snapshot's tick T (its batches up to T),
 * which a full node started from that snapshot (src/follow/snapshot-bootstrap.ts) cannot
 * derive, having no tick before T: without them it would produce that block with only its
 * batches after T. The leader reads them (the first rows of that height: later batches
 * have higher batch indexes), the follower checks them against the ids the snapshot's
 * builder state lists for that block and derives every key of docs/storage.md "Chain node"
 * itself (chain-tx, chain-seq, chain-ev, and the event ordinals of chain-evn and chain-evm,
 * counted back from the builder's ordinals at T). Their content is the leader's word, like
 * the snapshot; the block detail digest compared once the block is produced checks it.
 */
import type { BuilderState } from './builder.js';
import { heightKey, recordKey, u64Key, parseId } from './ids.js';
import type { ExplorerEvent, ExplorerTransaction } from './interface.js';
import { parseRecordJson } from './json.js';
import type { ChainOp, ChainStore } from './store.js';

export interface OpenRecords {
  transactions: string[]; // ExplorerTransaction JSON, id order
  events: string[]; // ExplorerEvent JSON, id order
}

/** The open block's records at the snapshot's tick (none when no block was open). */
export async function readOpenRecords(store: ChainStore, builder: BuilderState): Promise<OpenRecords> {
  const open = builder.open;
  if (!open) return { transactions: [], events: [] };
  const range = { gte: heightKey(open.height), lt: heightKey(open.height + 1) };
  const [transactions, events] = await Promise.all([
    open.transactionIds.length > 0 ? store.txs.values({ ...range, limit: open.transactionIds.length }).all() : [],
    open.eventIds.length > 0 ? store.events.values({ ...range, limit: open.eventIds.length }).all() : [],
  ]);
  return { transactions, events };
}

/** The store operations of the open block's records; throws naming the first record that does not fit the builder state. */
export function openRecordOps(store: ChainStore, builder: BuilderState, records: OpenRecords): ChainOp[] {
  const open = builder.open;
  const ops: ChainOp[] = [];
  const want = { transactions: open?.transactionIds ?? [], events: open?.eventIds ?? [] };
  if (records.transactions.length !== want.transactions.length || records.events.length !== want.events.length) {
    throw new Error(`the open block's records are ${records.transactions.length} transactions and ${records.events.length} events; its builder state lists ${want.transactions.length} and ${want.events.length}`);
  }
  if (!open) return ops;
  const keyOf = (id: string, what: string): string => {
    const p = parseId(id, what);
    if (typeof p === 'string' || p.height !== open.height) throw new Error(`${what} ${id} is not of the open block ${open.height}`);
    return recordKey(p.height, p.batch, p.index);
  };
  records.transactions.forEach((json, i) => {
    const t = parseRecordJson<ExplorerTransaction>(json);
    if (t.id !== want.transactions[i]) throw new Error(`open block transaction ${i} is ${String(t.id)}, not ${want.transactions[i]}`);
    if (typeof t.continuum_sequence !== 'bigint' && typeof t.continuum_sequence !== 'number') throw new Error(`open block transaction ${t.id} has no continuum_sequence`);
    const key = keyOf(t.id, 'transaction');
    store.putText(ops, store.txs, key, json);
    store.putText(ops, store.seqs, u64Key(t.continuum_sequence), key);
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
    if (e.id !== want.events[i] || e.market_id !== open.eventMarkets[i]) throw new Error(`open block event ${i} is ${String(e.id)} of market ${String(e.market_id)}, not ${want.events[i]} of ${open.eventMarkets[i]}`);
    store.putText(ops, store.events, keyOf(e.id, 'event'), json);
    store.putText(ops, store.eventsByOrdinal, u64Key(ordinals[i]!.global), json);
    store.putText(ops, store.eventsByMarket, `${e.market_id}:${u64Key(ordinals[i]!.market)}`, json);
  });
  return ops;
}
