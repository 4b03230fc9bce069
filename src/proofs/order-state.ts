/**
 * Order state proofs (docs/proofs.md "Order state proof"): an order's leaf in its market's
 * book tree, the market leaf in the markets tree, the used-id leaf in the used-id tree, and
 * the other inputs of state_root, so a verifier recomputes the block's state_root
 * (docs/chain.md "State root", unchanged). Steps, in order:
 *
 *   shape         every field well formed
 *   market_leaf   the market leaf decodes (Borsh) and is the proof's market
 *   book_leaf     resting: the slot holds this order's 81-byte leaf; not_resting: the slot
 *                 holds another order's leaf or nothing (or, with book_entries, no entry of
 *                 the whole book is this order's)
 *   book_path     the book leaf and its path (or all the entries) give the market leaf's book_root
 *   market_path   the market leaf and its path give markets_root (index < market_count)
 *   used_id_leaf  the used-id leaf is owner || order_id
 *   used_id_path  it and its path give used_ids_root
 *   state_root    SHA-256("SVC_STATE_ROOT_V1:" || markets_root || u32 C || u32 count ||
 *                 used_ids_root || u64 used count) is state_root
 *   anchor        the trusted block (when given) is block_height with this state_root,
 *                 last_tick (= tick_number) and last_tick_output_hash
 *   ended_by      the ending transaction's inclusion proof verifies and names this order
 *                 (a cancel) or this market (the order that filled it)
 *   ended_by_chain  given ticks N+1..tick_number: ended_by's tick N chains by output to a tick
 *                 whose output hashes to last_tick_output_hash (the block's anchor)
 *
 * The verifier never throws. The builder reads the engine's state; it imports the engine's
 * types only, so this file stays browser-safe. The records' codecs are in order-leaves.ts,
 * the ended_by step in ended-by.ts.
 */
import { bytesToHex } from '../crypto/browser-safe.js';
import { UUID_RE } from '../core/browser-safe.js';
import { auditPath, leafHashWith, rootFromPath } from '../crypto/browser-safe.js';
import { rootOfLeafHashesWith } from '../crypto/browser-safe.js';
import type { DexState } from '../dex/engine/index.js';
import { fromBase58Key, toBase58Key } from '../crypto/browser-safe.js';
import { sha256 as sha256Parts } from '../vdf/browser-safe.js';
import { ENDS, checkEndedBy } from './ended-by.js';
import { chainOutputs } from './inclusion.js';
import { StepFailure, bytesEqual, failureOf, hexField, intField, isObject, pathField, u64Field } from './fields.js';
import type {
  ChainTransactionProof,
  Failure,
  InclusionProof,
  InclusionVerdict,
  MerkleMember,
  OrderEnd,
  OrderLeaf,
  OrderStateProof,
  OrderStateStep,
  OrderStateVerdict,
  VerifyOrderStateOptions,
} from './interface.js';
import {
  MAX_BOOK_ENTRIES,
  MAX_TREE_SIZE,
  combineStateRootBytes,
  decodeBookLeaf,
  decodeMarketLeaf,
  isTreeSize,
  usedIdLeaf,
} from './order-leaves.js';

const sha256 = (data: Uint8Array): Uint8Array => sha256Parts(data);

// ------------------------------------------------------------------ builder

/** A used id's place in the used-id tree and its path (from the node's used-id store). */
export interface UsedIdMember {
  index: number;
  path: Uint8Array[];
}

/** The used-id member of (owner, order_id) from every used-id leaf in order (O(n): a rebuild, or tests). */
export function usedIdMemberFromLeaves(
  leaves: readonly Uint8Array[],
  owner: Uint8Array,
  orderId: bigint,
): UsedIdMember | undefined {
  const want = usedIdLeaf(owner, orderId);
  const index = leaves.findIndex((l) => bytesEqual(l, want));
  if (index < 0) return undefined;
  return {
    index,
    path: auditPath(
      sha256,
      leaves.map((l) => leafHashWith(sha256, l)),
      index,
    ),
  };
}

export interface OrderStateRequest {
  marketId: string;
  owner: Uint8Array;
  orderId: bigint;
  /** The block whose state_root the engine's state is now (docs/proofs.md "Which state"). */
  blockHeight: number;
  /** The last tick applied to the engine: the block's last_tick. */
  tickNumber: number;
  /** The block's last_tick_output_hash (hex); the node may fill it in later, with tick_number. */
  lastTickOutputHash: string;
  /** The id's used-id member: required for a not-resting order, optional for a resting one. */
  usedId?: UsedIdMember;
  /**
   * The caller attaches the used-id member later (attachUsedId), read from a store after
   * this state is gone: a not-resting proof is then incomplete until it does.
   */
  usedIdLater?: boolean;
  /** not_resting: the slot the order rested in (the node records it; absent if it never rested). */
  restedInSlot?: number;
  /** not_resting: prove absence with every entry of the book instead of one slot (small books). */
  wholeBook?: boolean;
  end?: OrderEnd;
  endedBy?: ChainTransactionProof | InclusionProof;
}

function member(index: number, entry: Uint8Array | undefined, path: Uint8Array[]): MerkleMember {
  return { index, leaf: entry ? bytesToHex(entry) : '', audit_path: path.map(bytesToHex) };
}

/**
 * The proof of an order's state in the engine's current state. Throws RangeError when the
 * market or the order (owner, order_id in this market) is unknown, when a not-resting order
 * comes without its used-id member, or when a given used-id member does not lead to the
 * state's used_ids_root (a node bug: never serve it).
 */
export function buildOrderStateProof(state: DexState, req: OrderStateRequest): OrderStateProof {
  const market = state.markets.get(req.marketId);
  if (!market) throw new RangeError(`no market ${req.marketId}`);
  const found = state.findOrder(req.owner, req.orderId);
  if (!found || found.marketId !== req.marketId)
    throw new RangeError(`no order ${req.orderId} of this owner in market ${req.marketId}`);
  const stateRoot = state.stateRoot();
  const markets = state.marketsRoot();
  const usedRoot = state.usedIdsRoot();
  const usedCount = state.usedIdCount;
  const resting = found.open && found.order !== undefined && found.order.slot >= 0;
  if (!resting && !req.usedId && !req.usedIdLater) throw new RangeError('a not-resting order needs its used-id member');
  if (req.usedId) {
    const r = rootFromPath(
      sha256,
      leafHashWith(sha256, usedIdLeaf(req.owner, req.orderId)),
      req.usedId.index,
      usedCount,
      req.usedId.path,
    );
    if (!r.ok || !bytesEqual(r.root, usedRoot))
      throw new RangeError("the used-id member does not lead to the state's used_ids_root");
  }
  const m = state.marketMember(market.index);
  const proof: OrderStateProof = {
    state: resting ? 'resting' : 'not_resting',
    market_id: req.marketId,
    owner: toBase58Key(req.owner),
    order_id: req.orderId.toString(),
    block_height: req.blockHeight,
    tick_number: req.tickNumber,
    last_tick_output_hash: req.lastTickOutputHash,
    state_root: bytesToHex(stateRoot),
    markets_root: bytesToHex(markets.root),
    markets_size: markets.size,
    market_count: state.marketList().length,
    used_ids_root: bytesToHex(usedRoot),
    used_id_count: usedCount,
    market: member(market.index, m.entry, m.path),
    book: { index: 0, leaf: '', audit_path: [] },
  };
  const tree = market.book.tree;
  if (resting) {
    const b = tree.member(found.order!.slot);
    proof.book = member(found.order!.slot, b.entry, b.path);
  } else if (req.wholeBook || req.restedInSlot === undefined) {
    delete (proof as Partial<OrderStateProof>).book;
    if (req.wholeBook)
      proof.book_entries = Array.from({ length: tree.size }, (_, s) =>
        bytesToHex(tree.member(s).entry ?? new Uint8Array(0)),
      );
  } else {
    const b = tree.member(req.restedInSlot);
    proof.book = member(req.restedInSlot, b.entry, b.path);
  }
  if (req.usedId) proof.used_id = member(req.usedId.index, usedIdLeaf(req.owner, req.orderId), req.usedId.path);
  if (req.end) proof.end = req.end;
  if (req.endedBy) proof.ended_by = req.endedBy;
  return proof;
}

/**
 * Attach the used-id member of the proof's (owner, order_id) in the used-id tree of the
 * proof's used_id_count leaves. Throws RangeError when it does not lead to the proof's
 * used_ids_root (a node bug: never serve it).
 */
export function attachUsedId(proof: OrderStateProof, usedId: UsedIdMember): OrderStateProof {
  const leaf = usedIdLeaf(fromBase58Key(proof.owner, 'owner'), BigInt(proof.order_id));
  const r = rootFromPath(sha256, leafHashWith(sha256, leaf), usedId.index, proof.used_id_count, usedId.path);
  if (!r.ok || bytesToHex(r.root) !== proof.used_ids_root)
    throw new RangeError("the used-id member does not lead to the proof's used_ids_root");
  proof.used_id = member(usedId.index, leaf, usedId.path);
  return proof;
}

// ------------------------------------------------------------------ verifier

function memberField(
  step: OrderStateStep,
  what: string,
  v: unknown,
  maxIndex: number,
): { index: number; leaf: Uint8Array; path: Uint8Array[] } {
  if (!isObject(v)) throw new StepFailure(step, `${what}: expected {index, leaf, audit_path}`);
  return {
    index: intField(step, `${what}.index`, v.index, 0, maxIndex),
    leaf: hexField(step, `${what}.leaf`, v.leaf),
    path: pathField(step, `${what}.audit_path`, v.audit_path),
  };
}

function trustedRoot(v: unknown): Uint8Array {
  if (Array.isArray(v)) {
    if (v.length !== 32 || !v.every((x) => Number.isInteger(x) && x >= 0 && x <= 255))
      throw new StepFailure<OrderStateStep>('anchor', 'trustedBlock.state_root: expected 32 integers 0..255');
    return Uint8Array.from(v as number[]);
  }
  return hexField<OrderStateStep>('anchor', 'trustedBlock.state_root', v, 32);
}

/** Check an order state proof; see the file comment for the steps. Never throws. */
/** An order state proof's fields, read and bounds-checked (step `shape`). */
interface ReadProof {
  state: 'resting' | 'not_resting';
  marketId: string;
  owner: Uint8Array;
  orderId: bigint;
  blockHeight: number;
  tickNumber: number;
  anchorHash: Uint8Array;
  stateRoot: Uint8Array;
  marketsRoot: Uint8Array;
  marketsSize: number;
  marketCount: number;
  usedRoot: Uint8Array;
  usedCount: number;
  market: Member;
  book: Member | undefined;
  entries: Uint8Array[] | undefined;
  usedId: Member | undefined;
  end: OrderEnd | undefined;
}
type Member = ReturnType<typeof memberField>;

function readProof(proof: unknown): ReadProof {
  const step: OrderStateStep = 'shape';
  if (!isObject(proof)) throw new StepFailure(step, 'proof: expected a JSON object');
  const state = proof.state;
  if (state !== 'resting' && state !== 'not_resting')
    throw new StepFailure(step, 'state: expected "resting" or "not_resting"');
  if (typeof proof.market_id !== 'string' || !UUID_RE.test(proof.market_id))
    throw new StepFailure(step, 'market_id: expected a lowercase UUID');
  let owner: Uint8Array;
  try {
    owner = fromBase58Key(typeof proof.owner === 'string' ? proof.owner : '', 'owner');
  } catch {
    throw new StepFailure(step, 'owner: expected a Base58 key of 32 bytes');
  }
  const orderId = u64Field(step, 'order_id', proof.order_id);
  const blockHeight = intField(step, 'block_height', proof.block_height, 1);
  const tickNumber = intField(step, 'tick_number', proof.tick_number, 1);
  const anchorHash = hexField(step, 'last_tick_output_hash', proof.last_tick_output_hash, 32);
  const stateRoot = hexField(step, 'state_root', proof.state_root, 32);
  const marketsRoot = hexField(step, 'markets_root', proof.markets_root, 32);
  const marketsSize = intField(step, 'markets_size', proof.markets_size, 64, MAX_TREE_SIZE);
  if (!isTreeSize(marketsSize)) throw new StepFailure(step, `markets_size ${marketsSize} is not a power of two >= 64`);
  const marketCount = intField(step, 'market_count', proof.market_count, 1, marketsSize);
  const usedRoot = hexField(step, 'used_ids_root', proof.used_ids_root, 32);
  const usedCount = intField(step, 'used_id_count', proof.used_id_count, 0);
  const market = memberField(step, 'market', proof.market, marketCount - 1);
  const book = proof.book === undefined ? undefined : memberField(step, 'book', proof.book, MAX_TREE_SIZE - 1);
  let entries: Uint8Array[] | undefined;
  if (proof.book_entries !== undefined) {
    if (!Array.isArray(proof.book_entries) || proof.book_entries.length > MAX_BOOK_ENTRIES)
      throw new StepFailure(step, `book_entries: expected a list of at most ${MAX_BOOK_ENTRIES} hex entries`);
    entries = proof.book_entries.map((e, i) => hexField(step, `book_entries[${i}]`, e));
  }
  if (state === 'resting' && !book) throw new StepFailure(step, 'a resting proof needs book');
  if (book && entries) throw new StepFailure(step, 'book and book_entries together');
  const usedId =
    proof.used_id === undefined ? undefined : memberField(step, 'used_id', proof.used_id, Math.max(0, usedCount - 1));
  if (state === 'not_resting' && !usedId) throw new StepFailure(step, 'a not_resting proof needs used_id');
  const end = proof.end;
  if (state === 'resting' && (end !== undefined || proof.ended_by !== undefined))
    throw new StepFailure(step, 'end and ended_by: only on a not_resting proof');
  if (state === 'not_resting' && (typeof end !== 'string' || !ENDS.includes(end as OrderEnd)))
    throw new StepFailure(step, `end: a not_resting proof needs one of ${ENDS.join(', ')}`);
  if (proof.ended_by !== undefined && !isObject(proof.ended_by))
    throw new StepFailure(step, 'ended_by: expected an inclusion proof object');
  return {
    state,
    marketId: proof.market_id,
    owner,
    orderId,
    blockHeight,
    tickNumber,
    anchorHash,
    stateRoot,
    marketsRoot,
    marketsSize,
    marketCount,
    usedRoot,
    usedCount,
    market,
    book,
    entries,
    usedId,
    end: end as OrderEnd | undefined,
  };
}

/** Step `book_leaf`: the slot holds this order (resting), or not (not resting: what it holds, if anything). */
function checkBookLeaf(p: ReadProof, bookSize: number): { order?: OrderLeaf; slotHolds?: OrderLeaf } {
  const step: OrderStateStep = 'book_leaf';
  const isThisOrder = (leaf: Uint8Array): boolean => {
    if (leaf.length === 0) return false;
    const o = decodeBookLeaf(step, leaf);
    return BigInt(o.order_id) === p.orderId && bytesEqual(o.ownerBytes, p.owner);
  };
  if (p.book) {
    if (p.book.index >= bookSize)
      throw new StepFailure(step, `slot ${p.book.index} is outside the book's ${bookSize} entries`);
    if (p.state === 'resting') {
      if (!isThisOrder(p.book.leaf))
        throw new StepFailure(step, `slot ${p.book.index} does not hold order ${p.orderId} of this owner`);
      const { ownerBytes: _o, ...order } = decodeBookLeaf(step, p.book.leaf);
      return { order };
    }
    if (isThisOrder(p.book.leaf))
      throw new StepFailure(step, `slot ${p.book.index} still holds the order: it is resting`);
    if (p.book.leaf.length === 0) return {};
    const { ownerBytes: _o, ...slotHolds } = decodeBookLeaf(step, p.book.leaf);
    return { slotHolds };
  }
  if (p.entries) {
    if (p.entries.length !== bookSize)
      throw new StepFailure(step, `book_entries has ${p.entries.length} entries, the book has ${bookSize}`);
    const at = p.entries.findIndex(isThisOrder);
    if (at >= 0) throw new StepFailure(step, `entry ${at} of the book is the order: it is resting`);
  }
  return {};
}

/** Steps `book_path` and `market_path`: the book leaf (or whole book) to the market's book_root, the market leaf to markets_root. */
function checkBookAndMarketPaths(p: ReadProof, ml: { bookRoot: Uint8Array; bookSize: number }): void {
  if (p.book) {
    const r = rootFromPath(sha256, leafHashWith(sha256, p.book.leaf), p.book.index, ml.bookSize, p.book.path);
    if (!r.ok) throw new StepFailure<OrderStateStep>('book_path', r.message);
    if (!bytesEqual(r.root, ml.bookRoot))
      throw new StepFailure<OrderStateStep>(
        'book_path',
        "the book leaf and its path do not lead to the market leaf's book_root",
      );
  } else if (p.entries) {
    const root = rootOfLeafHashesWith(
      sha256,
      p.entries.map((e) => leafHashWith(sha256, e)),
    );
    if (!bytesEqual(root, ml.bookRoot))
      throw new StepFailure<OrderStateStep>('book_path', "book_entries do not hash to the market leaf's book_root");
  }
  const mr = rootFromPath(sha256, leafHashWith(sha256, p.market.leaf), p.market.index, p.marketsSize, p.market.path);
  if (!mr.ok) throw new StepFailure<OrderStateStep>('market_path', mr.message);
  if (!bytesEqual(mr.root, p.marketsRoot))
    throw new StepFailure<OrderStateStep>('market_path', 'the market leaf and its path do not lead to markets_root');
}

/** Steps `used_id_leaf` and `used_id_path`: owner || order_id in the used-id tree; its index. */
function checkUsedId(p: ReadProof): number | undefined {
  if (!p.usedId) return undefined;
  if (!bytesEqual(p.usedId.leaf, usedIdLeaf(p.owner, p.orderId)))
    throw new StepFailure<OrderStateStep>('used_id_leaf', 'the used-id leaf is not owner || order_id (u64 LE)');
  const ur = rootFromPath(sha256, leafHashWith(sha256, p.usedId.leaf), p.usedId.index, p.usedCount, p.usedId.path);
  if (!ur.ok) throw new StepFailure<OrderStateStep>('used_id_path', ur.message);
  if (!bytesEqual(ur.root, p.usedRoot))
    throw new StepFailure<OrderStateStep>('used_id_path', 'the used-id leaf and its path do not lead to used_ids_root');
  return p.usedId.index;
}

/** Steps `state_root` and `anchor`: the inputs give state_root, and it is the trusted block's. */
function checkStateRoot(p: ReadProof, trustedBlock: VerifyOrderStateOptions['trustedBlock']): void {
  const computed = combineStateRootBytes(p.marketsRoot, p.marketsSize, p.marketCount, p.usedRoot, p.usedCount);
  if (!bytesEqual(computed, p.stateRoot))
    throw new StepFailure<OrderStateStep>(
      'state_root',
      `the inputs give state root ${bytesToHex(computed)}, not ${bytesToHex(p.stateRoot)}`,
    );
  if (trustedBlock === undefined) return;
  const step: OrderStateStep = 'anchor';
  const b: unknown = trustedBlock;
  if (!isObject(b)) throw new StepFailure(step, 'trustedBlock: expected {height, state_root, last_tick?}');
  if (b.height !== p.blockHeight)
    throw new StepFailure(step, `the proof is for block ${p.blockHeight}, the trusted block is ${String(b.height)}`);
  if (!bytesEqual(trustedRoot(b.state_root), p.stateRoot))
    throw new StepFailure(step, `state_root is not block ${p.blockHeight}'s state_root`);
  if (b.last_tick !== undefined && b.last_tick !== p.tickNumber)
    throw new StepFailure(
      step,
      `tick_number ${p.tickNumber} is not block ${p.blockHeight}'s last_tick ${String(b.last_tick)}`,
    );
  if (
    b.last_tick_output_hash !== undefined &&
    !bytesEqual(hexField(step, 'trustedBlock.last_tick_output_hash', b.last_tick_output_hash, 32), p.anchorHash)
  ) {
    throw new StepFailure(step, `last_tick_output_hash is not block ${p.blockHeight}'s`);
  }
}

export function verifyOrderState(
  proof: unknown,
  options: VerifyOrderStateOptions = {},
): OrderStateVerdict | Failure<OrderStateStep> {
  let step: OrderStateStep = 'shape';
  try {
    const p = readProof(proof);
    step = 'market_leaf';
    const ml = decodeMarketLeaf(p.market.leaf);
    if (ml.marketId !== p.marketId)
      throw new StepFailure(step, `the market leaf is market ${ml.marketId}, not ${p.marketId}`);
    step = 'book_leaf';
    const { order, slotHolds } = checkBookLeaf(p, ml.bookSize);
    step = 'book_path';
    checkBookAndMarketPaths(p, ml);
    step = 'used_id_leaf';
    const usedIdIndex = checkUsedId(p);
    step = 'state_root';
    checkStateRoot(p, options.trustedBlock);
    let endedBy: InclusionVerdict | undefined;
    let chained = false;
    if (isObject(proof) && proof.ended_by !== undefined) {
      step = 'ended_by';
      endedBy = checkEndedBy(proof.ended_by, options, p.end!, {
        marketId: p.marketId,
        owner: p.owner,
        orderId: p.orderId,
        baseMint: ml.baseMint,
        quoteMint: ml.quoteMint,
        tickNumber: p.tickNumber,
      });
      if (options.endedByTicks !== undefined) {
        step = 'ended_by_chain';
        checkEndedByChain(proof.ended_by, endedBy.tick_number, p, options);
        chained = true;
      }
    }
    return {
      ok: true,
      state: p.state,
      state_root: bytesToHex(p.stateRoot),
      block_height: p.blockHeight,
      absence: p.state === 'resting' ? undefined : p.book ? 'slot' : p.entries ? 'book' : 'unproven',
      ...(order ? { order } : {}),
      ...(slotHolds ? { slot_holds: slotHolds } : {}),
      ...(usedIdIndex !== undefined ? { used_id_index: usedIdIndex } : {}),
      ...(endedBy ? { ended_by: endedBy, ended_by_chained: chained } : {}),
    };
  } catch (e) {
    return failureOf(e, step);
  }
}

/** Step `ended_by_chain`: ended_by's tick N, then ticks N+1..tick_number, chain to the block's anchor. */
function checkEndedByChain(endedBy: unknown, n: number, p: ReadProof, options: VerifyOrderStateOptions): void {
  const step: OrderStateStep = 'ended_by_chain';
  const inner: unknown = isObject(endedBy) && 'proof' in endedBy ? endedBy.proof : endedBy;
  const tick = isObject(inner) ? inner.tick : undefined;
  const ticks = options.endedByTicks;
  if (!Array.isArray(ticks) || ticks.length !== p.tickNumber - n)
    throw new StepFailure(
      step,
      `expected the ${p.tickNumber - n} ticks ${n + 1}..${p.tickNumber} after ended_by's tick`,
    );
  const last = chainOutputs(step, tick, n, ticks, options.inclusion!.tickVerifier);
  if (!bytesEqual(sha256(last.output), p.anchorHash))
    throw new StepFailure(step, `tick ${last.tickNumber}'s output does not hash to last_tick_output_hash`);
}
