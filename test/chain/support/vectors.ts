/**
 * docs/chain-vectors.json: state-root vectors an outside client can recompute
 * (docs/chain.md "State root"). `makeVectors()` derives them from a fixed flow of ticks
 * (support/flow.ts, seed 11) through the node's engine; test/chain/vectors.test.ts checks
 * the file against it and against the SDK's independent code. Regenerate (only when the
 * definition changes on purpose) with:
 *   node dist/test/chain/support/vectors.js > docs/chain-vectors.json
 */
import { encodeMarketLeaf, encodeUsedIdLeaf, OrderBookEngine } from '../../../src/dex/engine/index.js';
import { bookView } from '../../../src/dex/views.js';
import { toBase58 } from '../../../src/crypto/base58.js';
import { bytesToHex as toHex } from '../../../src/crypto/hex.js';
import type { MarketStateInput, UsedIdInput } from '../../../src/sdk/chain-root.js';
import { applyAll, checkSignature, makeTicks } from './flow.js';

export interface RootsVector {
  markets_root: string;
  markets_size: number;
  used_ids_root: string;
  state_root: string;
}

export interface ChainVectors {
  description: string;
  empty: RootsVector;
  flow: RootsVector & {
    seed: number;
    ticks: number;
    markets: MarketStateInput[];
    used_ids: UsedIdInput[];
    market_leaves: string[];
    used_id_leaves_first: string[];
  };
}

function roots(engine: OrderBookEngine): RootsVector {
  const m = engine.state.marketsRoot();
  return {
    markets_root: toHex(m.root),
    markets_size: m.size,
    used_ids_root: toHex(engine.state.usedIdsRoot()),
    state_root: toHex(engine.stateRoot()),
  };
}

export function makeVectors(): ChainVectors {
  const engine = new OrderBookEngine();
  const records = applyAll(engine, makeTicks(400, 11), checkSignature);
  const used: UsedIdInput[] = [];
  const usedBytes: Uint8Array[] = [];
  for (const r of records) {
    for (const a of r.txs) {
      if (!a.outcome.ok || a.outcome.kind !== 'order') continue;
      used.push({ owner: toBase58(a.outcome.order.owner), order_id: a.outcome.order.orderId.toString() });
      usedBytes.push(encodeUsedIdLeaf(a.outcome.order.owner, a.outcome.order.orderId));
    }
  }
  const list = engine.state.marketList();
  const markets: MarketStateInput[] = list.map((m) => ({
    market_id: m.info.marketId,
    base_mint: toBase58(m.info.baseMint),
    quote_mint: toBase58(m.info.quoteMint),
    name: m.info.name,
    kind: m.info.kind,
    created_seq: m.info.createdSeq.toString(),
    next_trade_id: m.book.nextTrade.toString(),
    tree_size: m.book.tree.size,
    orders: bookView(m, 1, 0, true).orders!,
  }));
  return {
    description:
      'State-root vectors of the chain (docs/chain.md "State root"). empty: a node with no market and no order. flow: after the fixed flow of test/chain/support/flow.ts (seed 11, 400 ticks). Hashes are lowercase hex, u64 values decimal strings. market leaf = Borsh {market_id String, base_mint [u8;32], quote_mint [u8;32], name String, kind u8, created_seq u64, book_root [u8;32], book_size u32, next_trade_id u64} with book_root the market book root of docs/dex-api.md over `orders` and `tree_size`; markets_root = RFC 6962 MTH over markets_size entries (market leaves in creation order, then empty entries); used-id leaf = owner [u8;32] || order_id u64 LE, in the order first used; used_ids_root = RFC 6962 MTH of those; state_root = SHA-256("SVC_STATE_ROOT_V1:" || markets_root || u32 LE markets_size || u32 LE market count || used_ids_root || u64 LE used-id count).',
    empty: roots(new OrderBookEngine()),
    flow: {
      seed: 11,
      ticks: 400,
      markets,
      used_ids: used,
      market_leaves: list.map((m) =>
        toHex(encodeMarketLeaf(m.info, m.book.root(), m.book.tree.size, m.book.nextTrade)),
      ),
      used_id_leaves_first: usedBytes.slice(0, 3).map(toHex),
      ...roots(engine),
    },
  };
}

if (process.argv[1]?.endsWith('vectors.js')) process.stdout.write(`${JSON.stringify(makeVectors(), null, 1)}\n`);
