/**
 * The explorer's proofs a user can hold (docs/proofs.md, docs/chain.md "Proofs"):
 *
 *   GET /transactions/:id/proof                             the sequencer transaction's
 *       inclusion proof behind a chain transaction, with the ids tying it to its block
 *   GET /markets/:market_id/orders/:order_id/proof?owner=   the order's state against the
 *       latest produced block's state_root
 *
 * An order's state is read while the order book's state is a produced block's (the chain's
 * atBlockState: at once when no block is open, else just before the tick that closes it),
 * so its state_root is the one GET /blocks/:block_height serves; the used-id path and the
 * ending transaction's proof are read from the store afterwards (they never change).
 */
import type { RouterContext } from '@koa/router';
import type Router from '@koa/router';
import { bytesToHex } from '../../crypto/index.js';
import { UUID_RE } from '../../core/index.js';
import type { DexState } from '../../dex/engine/index.js';
import {
  attachUsedId,
  buildChainTransactionProof,
  buildInclusionProof,
  buildOrderStateProof,
  type ChainTransactionProof,
  type OrderStateProof,
} from '../../proofs/index.js';
import { fromBase58Key, toBase58Key } from '../../crypto/index.js';
import type { Sequencer } from '../../sequencer/index.js';
import { restTick } from '../../vdf/index.js';
import { clip, encodeJson, parseRecordJson } from '../../wire/index.js';
import {
  formatId,
  parseId,
  recordKey,
  type BlockRecord,
  type Chain,
  type ExplorerTransaction,
  type OrderRecords,
} from '../core/index.js';
import { answerRefusal, ChainRefusal, sendJson, type ChainRefusalCode, type ChainRefusalOptions } from './errors.js';

/** Books of at most this many entries may be sent whole (?book=whole). */
export const MAX_WHOLE_BOOK = 4096;
/** How long an order proof waits for a produced block's state before answering 503. */
export const BLOCK_STATE_WAIT_MS = 10_000;
/**
 * Order proofs being read at once at most: each is built while the order book waits (just
 * before a block's closing tick), so a flood must not stall the ticks. More: 503.
 */
export const MAX_ORDER_PROOFS_IN_FLIGHT = 64;
/** How long an order proof waits for the proof of the tick of the transaction that ended the order. */
export const ENDED_BY_WAIT_MS = 3_000;

export interface ProofRouteDeps {
  chain: Chain;
  state: () => DexState;
  sequencer: Pick<Sequencer, 'getTick'>;
  /** Absent, or not enabled: order proofs answer 503. */
  orders?: OrderRecords;
}

/** Refuse with the explorer's refusal (errors.ts): a status code's name, the message, body fields and Retry-After. */
const refuse = (code: ChainRefusalCode, error: string, options: ChainRefusalOptions = {}): never => {
  throw new ChainRefusal(code, error, options);
};

function handler(run: (ctx: RouterContext) => Promise<unknown>): (ctx: RouterContext) => Promise<void> {
  return async (ctx) => {
    let body: unknown;
    try {
      body = await run(ctx);
    } catch (err) {
      if (!(err instanceof ChainRefusal)) throw err;
      return answerRefusal(ctx, err);
    }
    sendJson(ctx, 200, encodeJson(body));
  };
}

/** Mount both routes (before /transactions/:id so that the longer path is matched first). */
export function mountProofRoutes(router: Router, deps: ProofRouteDeps): void {
  router.get(
    '/transactions/:id/proof',
    handler((ctx) => transactionProof(deps, ctx.params.id ?? '')),
  );
  router.get(
    '/markets/:market_id/orders/:order_id/proof',
    handler((ctx) =>
      orderProof(deps, ctx.params.market_id ?? '', ctx.params.order_id ?? '', ctx.query.owner, ctx.query.book),
    ),
  );
}

// ------------------------------------------------------------------ transactions

async function chainTransaction(
  chain: Chain,
  height: number,
  batch: number,
  index: number,
): Promise<ExplorerTransaction> {
  const json = await chain.transactionJson({ height, batch, index });
  if (json !== undefined) return parseRecordJson<ExplorerTransaction>(json);
  const canonical = formatId(height, batch, index);
  if ((await chain.store.markets.get(recordKey(height, batch, index))) !== undefined) {
    refuse(
      'NOT_FOUND',
      `${canonical} is a market creation, not a transaction: it is in the \`markets\` of GET /blocks/${height}`,
    );
  }
  return refuse('NOT_FOUND', `transaction ${canonical} does not exist`);
}

/** The explorer's proof of a chain transaction (404 pending while its tick has no stored proof). */
async function chainTransactionProof(deps: ProofRouteDeps, t: ExplorerTransaction): Promise<ChainTransactionProof> {
  const tick = await deps.sequencer.getTick(t.tick_number);
  if (!tick)
    refuse('PENDING', `transaction ${t.id} is not yet in a proven tick; retry shortly`, { fields: { found: false } });
  const index = Number(BigInt(t.continuum_sequence) & 0xffff_ffffn);
  const served = JSON.parse(encodeJson(restTick(tick!))) as unknown;
  const proof = buildInclusionProof(tick!, index, served);
  const held = tick!.transactions[index];
  if (!held || bytesToHex(held.txHash) !== t.tx_hash)
    throw new Error(`chain transaction ${t.id} is not transaction ${index} of tick ${t.tick_number}`);
  return buildChainTransactionProof(
    {
      transactionId: t.id,
      blockHeight: t.block_height,
      batchIndex: t.batch_index,
      continuumSequence: BigInt(t.continuum_sequence),
    },
    proof,
  );
}

async function transactionProof(deps: ProofRouteDeps, text: string): Promise<ChainTransactionProof> {
  const id = parseId(text, 'transaction id');
  if (typeof id === 'string') return refuse('BAD_REQUEST', id);
  const t = await chainTransaction(deps.chain, id.height, id.batch, id.index);
  return chainTransactionProof(deps, t);
}

// ------------------------------------------------------------------ orders

function parseOrderRequest(
  marketId: string,
  orderIdText: string,
  ownerRaw: unknown,
  bookRaw: unknown,
): { owner: Uint8Array; orderId: bigint; whole: boolean } {
  if (!UUID_RE.test(marketId)) refuse('BAD_REQUEST', `market_id must be a lowercase UUID, got '${clip(marketId)}'`);
  if (!/^\d{1,20}$/.test(orderIdText) || BigInt(orderIdText) > 0xffff_ffff_ffff_ffffn)
    refuse('BAD_REQUEST', `order_id must be a u64 in decimal, got '${clip(orderIdText)}'`);
  if (ownerRaw === undefined) refuse('BAD_REQUEST', 'owner is required: ?owner=<Base58 public key>');
  if (typeof ownerRaw !== 'string') return refuse('BAD_REQUEST', 'owner is given more than once; give it once');
  let owner: Uint8Array;
  try {
    if (ownerRaw.length > 64) throw new TypeError('too long');
    owner = fromBase58Key(ownerRaw, 'owner');
  } catch (err) {
    return refuse('BAD_REQUEST', `owner must be a Base58 public key (32 bytes): ${(err as Error).message}`);
  }
  if (bookRaw !== undefined && bookRaw !== 'whole') refuse('BAD_REQUEST', "book must be 'whole' when given");
  return { owner, orderId: BigInt(orderIdText), whole: bookRaw === 'whole' };
}

/** What is read at the block's state: the proof without its used-id member (attached after). */
interface Captured {
  proof: OrderStateProof;
  resting: boolean;
}

function atBlockState<T>(chain: Chain, read: (height: number) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new ChainRefusal('UNAVAILABLE', 'no block was produced in time; retry shortly', { retryAfter: 1 }));
    }, BLOCK_STATE_WAIT_MS);
    chain.atBlockState(({ height }) => {
      if (done) return;
      clearTimeout(timer);
      try {
        resolve(read(height));
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

let inFlight = 0;

async function orderProof(
  deps: ProofRouteDeps,
  marketId: string,
  orderIdText: string,
  ownerRaw: unknown,
  bookRaw: unknown,
): Promise<OrderStateProof> {
  const request = parseOrderRequest(marketId, orderIdText, ownerRaw, bookRaw);
  if (inFlight >= MAX_ORDER_PROOFS_IN_FLIGHT)
    refuse('UNAVAILABLE', `${MAX_ORDER_PROOFS_IN_FLIGHT} order proofs are being read; retry shortly`, {
      retryAfter: 1,
    });
  inFlight++;
  try {
    return await readOrderProof(deps, marketId, request);
  } finally {
    inFlight--;
  }
}

async function readOrderProof(
  deps: ProofRouteDeps,
  marketId: string,
  { owner, orderId, whole }: ReturnType<typeof parseOrderRequest>,
): Promise<OrderStateProof> {
  const orders = deps.orders;
  if (!orders?.enabled)
    return refuse(
      'UNAVAILABLE',
      "this node does not serve order state proofs (it started from another node's snapshot)",
    );
  const { chain } = deps;
  const ownerText = toBase58Key(owner);
  const known = (state: DexState): void => {
    const market = state.markets.get(marketId);
    if (!market) refuse('NOT_FOUND', `market ${marketId} does not exist`);
    if (!state.knowsOwner(owner)) refuse('NOT_FOUND', `owner ${ownerText} has never placed an order`);
    const found = state.findOrder(owner, orderId);
    if (!found) refuse('NOT_FOUND', `order ${orderId} of owner ${ownerText} does not exist`);
    if (found!.marketId !== marketId)
      refuse('NOT_FOUND', `order ${orderId} of owner ${ownerText} is in market ${found!.marketId}, not ${marketId}`);
    if (whole && market!.book.tree.size > MAX_WHOLE_BOOK)
      refuse(
        'BAD_REQUEST',
        `book too large: ${market!.book.tree.size} entries (at most ${MAX_WHOLE_BOOK} with book=whole)`,
      );
  };
  known(deps.state());
  // Its placement (used-id ordinal, slot) is stored with its tick's records; a few tries
  // cover an order placed after the read, whose slot a not-resting proof needs.
  for (let attempt = 0; ; attempt++) {
    await chain.flushed();
    const placement = await orders.placement(owner, orderId);
    const captured = await atBlockState<Captured | undefined>(chain, (height) => {
      const state = deps.state();
      known(state);
      const found = state.findOrder(owner, orderId)!;
      const resting = found.open && found.order !== undefined && found.order.slot >= 0;
      if (!resting && !placement) return undefined; // placed and ended after the read
      const restedInSlot = !resting && placement!.slot >= 0 ? placement!.slot : undefined;
      const proof = buildOrderStateProof(state, {
        marketId,
        owner,
        orderId,
        blockHeight: height,
        tickNumber: 1,
        lastTickOutputHash: '',
        usedIdLater: true,
        wholeBook: whole && !resting,
        ...(restedInSlot !== undefined ? { restedInSlot } : {}),
      });
      return { proof, resting };
    });
    if (captured) return complete(deps, orders, captured, placement);
    if (attempt >= 3)
      refuse('UNAVAILABLE', 'the order changed while its proof was read; retry shortly', { retryAfter: 1 });
  }
}

/** After the block's state: its last tick (and a check of its state_root), the used-id path, how the order ended. */
async function complete(
  deps: ProofRouteDeps,
  orders: OrderRecords,
  c: Captured,
  known: Awaited<ReturnType<OrderRecords['placement']>>,
): Promise<OrderStateProof> {
  const { chain } = deps;
  const p = c.proof;
  const owner = fromBase58Key(p.owner, 'owner');
  const orderId = BigInt(p.order_id);
  await chain.flushed();
  const blockText = await chain.store.blockJson(p.block_height);
  if (blockText === undefined) throw new Error(`block ${p.block_height} is not stored after its state was read`);
  const block = parseRecordJson<BlockRecord>(blockText);
  if (bytesToHex(Uint8Array.from(block.state_root)) !== p.state_root)
    throw new Error(`the state read for block ${p.block_height} is not its state_root`);
  p.tick_number = block.last_tick;
  p.last_tick_output_hash = block.last_tick_output_hash;
  const placement = known ?? (await orders.placement(owner, orderId));
  if (!placement) throw new Error(`order ${orderId} of ${p.owner} has no stored placement`);
  attachUsedId(p, { index: placement.ordinal, path: await orders.usedIdPath(placement.ordinal, p.used_id_count) });
  if (c.resting) return p;
  const ending = await orders.ending(owner, orderId);
  if (ending) {
    p.end = ending.end;
    const [key] = await chain.store.keysOfSequences([ending.sequence]);
    if (key !== undefined) {
      const t = await chainTransaction(
        chain,
        parseInt(key.slice(0, 16), 16),
        parseInt(key.slice(16, 24), 16),
        parseInt(key.slice(24, 32), 16),
      );
      // Its tick is older than the block's state, so its proof is (nearly always) stored;
      // if not within ENDED_BY_WAIT_MS, the proof goes without ended_by.
      for (const until = Date.now() + ENDED_BY_WAIT_MS; ; ) {
        try {
          p.ended_by = await chainTransactionProof(deps, t);
          break;
        } catch (err) {
          if (!(err instanceof ChainRefusal)) throw err;
          if (Date.now() > until) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }
  }
  // The documented field order: the ending last.
  const { end, ended_by, ...rest } = p;
  return { ...rest, ...(end ? { end } : {}), ...(ended_by ? { ended_by } : {}) };
}
