/**
 * The proofs a user can hold (docs/proofs.md): their JSON shapes exactly as the node serves
 * them, the verdicts of their verifiers and the options those take. Types only.
 *
 * Byte fields are lowercase hex without `0x` (readers accept upper case); u64 values that
 * can pass 2^53 (order ids, continuum sequences) are decimal strings.
 */
import type { SlotOrderView } from '../core/browser-safe.js';

/** A transaction's inclusion in a tick (GET /api/v1/tx/{hash}/proof). */
export interface InclusionProof {
  tick_number: number;
  /** The transaction's place in the tick, from 0 (sequence_number - first_sequence). */
  index: number;
  transaction_count: number;
  /** The serialized transaction: the Borsh bytes whose SHA-256 is its full hash. */
  tx: string;
  /** Sibling hashes, leaf to root, under the batch hash's rule (odd last node moves up). */
  audit_path: string[];
  batch_hash: string;
  /** Exactly what GET /api/v1/tick/{tick_number} serves (the lookup answer, without transactions). */
  tick: unknown;
}

/** The explorer's GET /transactions/:id/proof: the sequencer transaction's proof and the ids tying it to the block. */
export interface ChainTransactionProof {
  transaction_id: string; // {height:016x}-{batch:04x}-{index:04x}
  block_height: number;
  batch_index: number;
  continuum_sequence: string; // decimal: (tick_number << 32) | index
  proof: InclusionProof;
}

/** A Merkle membership: the entry (hex; "" for an empty slot), its position, the tree size and the path. */
export interface MerkleMember {
  index: number;
  leaf: string;
  audit_path: string[];
}

export type OrderState = 'resting' | 'not_resting';

/** Why an order is no longer resting, as the node knows it (not itself proven: see ended_by). */
export type OrderEnd = 'filled' | 'cancelled' | 'expired' | 'self_trade' | 'filled_on_arrival';

/**
 * An order's state against a state_root (GET /markets/:market_id/orders/:order_id/proof?owner=).
 * `book` is the slot: for `resting`, the order's 81-byte leaf there; for `not_resting`, what
 * the slot the order rested in holds now (another order's leaf or "" for empty). The tree
 * sizes are in the market leaf (book_size) and here (markets_size, used_id_count).
 */
export interface OrderStateProof {
  state: OrderState;
  market_id: string;
  owner: string; // Base58
  order_id: string; // decimal u64
  block_height: number;
  tick_number: number; // the state is the one after this tick: the block's last_tick
  /** The block's last_tick_output_hash: SHA-256 of tick tick_number's VDF output (the block's anchor in the tick chain). */
  last_tick_output_hash: string;
  state_root: string;
  markets_root: string;
  markets_size: number; // C of the markets tree: a power of two, 64..2^31 (written as a u32)
  market_count: number;
  used_ids_root: string;
  used_id_count: number;
  market: MerkleMember; // index = the market's creation index, leaf = its Borsh market leaf
  /** index = the slot. Absent for a not-resting order proven with book_entries, or one that never rested. */
  book?: MerkleMember;
  /** not_resting, small books: every entry of the book (book_size of them, "" for empty slots). */
  book_entries?: string[];
  /** owner || order_id (40 bytes) with its path to used_ids_root: the id was used. Always present for not_resting. */
  used_id?: MerkleMember;
  /** not_resting: always served (how the order left the book, the node's word). */
  end?: OrderEnd;
  /**
   * The proof of the transaction that ended the order (a cancel, or the order that filled
   * it): the node serves the explorer form; verifiers accept both. Absent when its tick had
   * no stored proof in time.
   */
  ended_by?: ChainTransactionProof | InclusionProof;
}

/** One verification step; the CLI prints its name when it fails. */
export type InclusionStep =
  | 'shape'
  | 'transaction'
  | 'audit_path'
  | 'batch_hash'
  | 'tick'
  | 'tick_vdf'
  | 'chain'
  | 'block_ids';
/** The order state steps, in the order they run. */
export type OrderStateStep =
  | 'shape'
  | 'book_leaf'
  | 'book_path'
  | 'market_leaf'
  | 'market_path'
  | 'used_id_leaf'
  | 'used_id_path'
  | 'state_root'
  | 'anchor'
  | 'ended_by'
  | 'ended_by_chain';

export interface Failure<S extends string> {
  ok: false;
  step: S;
  message: string;
}

/** What a valid inclusion proof establishes. */
export interface InclusionVerdict {
  ok: true;
  tick_number: number;
  index: number;
  sequence_number: number; // first_sequence + index
  tx_hash: string; // full SHA-256, 64 hex
  tx_id: string;
  public_key: string; // hex
  payload: string; // hex
  chained_to?: number; // the trusted tick the proof was chained to
}

/** An order's book leaf as JSON: the order book API's view of a slot's order (GET .../orderbook?orders=true), without the slot. */
export type OrderLeaf = Omit<SlotOrderView, 'slot'>;

/** What a valid order state proof establishes (docs/proofs.md says what it does not). */
export interface OrderStateVerdict {
  ok: true;
  state: OrderState;
  state_root: string;
  block_height: number;
  /** resting: the order's leaf. */
  order?: OrderLeaf;
  /** not_resting: what its slot holds now (undefined: empty). */
  slot_holds?: OrderLeaf;
  used_id_index?: number;
  /** not_resting: how absence from the book is shown: one slot, the whole book, or not at all (never rested). */
  absence?: 'slot' | 'book' | 'unproven';
  ended_by?: InclusionVerdict;
  /** ended_by was chained through ticks N+1..tick_number to the block's anchor (step ended_by_chain). */
  ended_by_chained?: boolean;
}

/** The existing tick verification (the browser verifier's createVerifier(): verifyTick / verifyTicks). */
export interface TickVerifier {
  verifyTick(json: unknown): { ok: boolean; code?: string; message?: string };
  verifyTicks(
    json: unknown[],
    options?: { gaps?: 'fail' | 'report' },
  ): {
    ok: boolean;
    invalid: number[];
    ticks: { ok: boolean; tickNumber: number | null; code?: string; message?: string }[];
  };
}

export interface VerifyInclusionOptions {
  /** Checks the tick's bound header and VDF proof (step tick_vdf). */
  tickVerifier: TickVerifier;
  /** The hash the user asked about (8 or 64 hex): the transaction must have it. */
  expectedHash?: string;
  /**
   * Chain to a later tick the caller already trusts: `ticks` are the ticks after the
   * proof's, in order, up to the trusted one; `trustedOutput` is that last tick's VDF output
   * (hex). With no ticks, the proof's own tick must have that output.
   */
  chain?: { ticks: unknown[]; trustedOutput: string };
  /**
   * Explorer form only (step block_ids): the block the caller trusts that holds the
   * transaction (GET /blocks/{block_height}'s `block`). Its transaction_ids must list the
   * transaction_id and its batch summary `batch_index` must be of this tick, with this
   * batch_hash and continuum_sequence at the id's index. continuum_sequences as exact
   * integers (bigint, decimal strings, or safe JSON numbers).
   */
  block?: TrustedBlock;
}

/** The parts of a BlockRecord (GET /blocks/{height}'s `block`) the verifiers read. */
export interface TrustedBlock {
  height: number;
  state_root?: string | number[];
  last_tick?: number;
  last_tick_output_hash?: string;
  transaction_ids?: string[];
  batch_summaries?: {
    index: number;
    tick_number: number;
    batch_hash: string;
    continuum_sequences: (bigint | string | number)[];
  }[];
}

export interface VerifyOrderStateOptions {
  /**
   * The block the caller trusts, e.g. GET /blocks/{block_height}'s `block` as served: the
   * proof's block_height must be its height, state_root its state_root (hex or 32
   * integers) and, when given, tick_number its last_tick and last_tick_output_hash its
   * last_tick_output_hash.
   */
  trustedBlock?: { height: number; state_root: string | number[]; last_tick?: number; last_tick_output_hash?: string };
  /** Needed when the proof carries ended_by (its inclusion is checked). */
  inclusion?: VerifyInclusionOptions;
  /**
   * Step ended_by_chain: the ticks after ended_by's tick N up to the proof's tick_number
   * (N+1..tick_number, each as GET /api/v1/tick/{n} serves it; none when N = tick_number).
   * They must verify, link by output, and the last one's output must hash to the proof's
   * last_tick_output_hash (which `anchor` ties to the trusted block). Without them the step
   * is not run and the verdict's ended_by_chained is false.
   */
  endedByTicks?: unknown[];
}
