/**
 * Owner events of one applied tick (docs/chain.md "Channels", orders channel): a pure
 * function of the AppliedTick, in tick order. For each order book transaction:
 *
 *   order accepted   taker: `accepted`; each trade: the maker's `partially_filled`/`filled`
 *                    with its fill; each removal: `expired`, or `cancelled` (reason
 *                    self_trade) for the resting order's owner; then, when it traded, the
 *                    taker's `partially_filled`/`filled` with all its fills
 *   cancel accepted  `cancelled` (reason cancel) with the quantity that was resting
 *   mass cancel      one `cancelled` (reason cancel_all, with its request_id) per order it
 *                    ended, in continuum_sequence order of the orders; none when none was open
 *   refused          `refused` with the engine's code (a mass cancel's: kind cancel_all,
 *                    order_id = its request_id, as in its receipt), only when the owner's signature
 *                    verified: anyone can send a transaction naming any owner with a bad
 *                    signature, and that must not write into the owner's channel
 *
 * Market creations have no owner. Every event names its tick and the continuum_sequence of
 * the transaction that caused it, so a client can check it against an inclusion proof.
 */
import type { AppliedTick } from '../dex/engine/index.js';
import { BUY, type BookOrder } from '../dex/engine/index.js';
import { toBase58Key } from '../crypto/index.js';
import { RunningRemaining } from './running.js';

export type OwnerEventKind = 'accepted' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'refused';

export interface Fill {
  trade_id: bigint;
  price: bigint;
  quantity: bigint;
  role: 'maker' | 'taker';
}

/** One event, in the order of its JSON fields (owner, seq and the envelope are added by the log). */
export interface OwnerEvent {
  owner: Uint8Array;
  body: OwnerEventBody;
}

export interface OwnerEventBody {
  event: OwnerEventKind;
  tick: number;
  continuum_sequence: bigint;
  market_id?: string;
  order_id: bigint;
  side?: 'Buy' | 'Sell';
  price?: bigint;
  quantity?: bigint;
  expiry?: bigint;
  remaining?: bigint;
  filled_quantity?: bigint;
  fills?: Fill[];
  cancelled_quantity?: bigint;
  reason?: 'cancel' | 'self_trade' | 'cancel_all';
  kind?: 'order' | 'cancel' | 'cancel_all';
  request_id?: bigint; // the mass cancel that ended the order (reason cancel_all)
  base_mint?: string;
  quote_mint?: string;
  code?: string;
  message?: string;
}

function sideOf(o: BookOrder): 'Buy' | 'Sell' {
  return o.side === BUY ? 'Buy' : 'Sell';
}

function orderFields(o: BookOrder): Pick<OwnerEventBody, 'market_id' | 'order_id' | 'side' | 'price'> {
  return { market_id: o.marketId, order_id: o.orderId, side: sideOf(o), price: o.price };
}

/** The owner events of a tick, in order. */
export function ownerEventsOf(applied: AppliedTick): OwnerEvent[] {
  const out: OwnerEvent[] = [];
  const tick = applied.tick.tickNumber;
  const running = new RunningRemaining(applied);
  for (const t of applied.txs) {
    const cs = t.continuumSequence;
    const o = t.outcome;
    if (!o.ok) {
      if (!t.verified || t.tx.kind === 'market') continue;
      const base = { event: 'refused' as const, tick, continuum_sequence: cs };
      if (t.tx.kind === 'order') {
        const it = t.tx.intent;
        out.push({
          owner: it.owner,
          body: {
            ...base,
            kind: 'order',
            order_id: it.orderId,
            base_mint: toBase58Key(it.baseMint),
            quote_mint: toBase58Key(it.quoteMint),
            code: o.code,
            message: o.message,
          },
        });
      } else if (t.tx.kind === 'cancel') {
        out.push({
          owner: t.tx.owner,
          body: {
            ...base,
            kind: 'cancel',
            market_id: t.tx.marketId,
            order_id: t.tx.orderId,
            code: o.code,
            message: o.message,
          },
        });
      } else {
        const tx = t.tx;
        const body = {
          ...base,
          kind: 'cancel_all' as const,
          market_id: tx.marketId,
          order_id: tx.requestId,
          code: o.code,
          message: o.message,
        };
        out.push({ owner: tx.owner, body });
      }
      continue;
    }
    if (o.kind === 'market') continue;
    if (o.kind === 'cancel_all') {
      const requestId = t.tx.kind === 'cancel_all' ? t.tx.requestId : 0n;
      for (const e of o.ended) {
        const body: OwnerEventBody = {
          event: 'cancelled',
          tick,
          continuum_sequence: cs,
          ...orderFields(e.order),
          remaining: 0n,
        };
        body.cancelled_quantity = e.cancelled;
        body.reason = 'cancel_all';
        body.request_id = requestId;
        out.push({ owner: e.order.owner, body });
      }
      continue;
    }
    if (o.kind === 'cancel') {
      out.push({
        owner: o.order.owner,
        body: {
          event: 'cancelled',
          tick,
          continuum_sequence: cs,
          ...orderFields(o.order),
          remaining: 0n,
          cancelled_quantity: o.cancelled,
          reason: 'cancel',
        },
      });
      continue;
    }
    const taker = o.order;
    const r = o.result;
    out.push({
      owner: taker.owner,
      body: {
        event: 'accepted',
        tick,
        continuum_sequence: cs,
        ...orderFields(taker),
        quantity: taker.quantity,
        expiry: taker.expiry,
        remaining: taker.quantity,
      },
    });
    const takerFills: Fill[] = [];
    for (const tr of r.trades) {
      const left = running.traded(tr.maker, tr.quantity);
      takerFills.push({ trade_id: tr.tradeId, price: tr.price, quantity: tr.quantity, role: 'taker' });
      out.push({
        owner: tr.maker.owner,
        body: {
          event: left === 0n ? 'filled' : 'partially_filled',
          tick,
          continuum_sequence: cs,
          ...orderFields(tr.maker),
          remaining: left,
          filled_quantity: tr.maker.quantity - left,
          fills: [{ trade_id: tr.tradeId, price: tr.price, quantity: tr.quantity, role: 'maker' }],
        },
      });
    }
    for (const rm of r.removals) {
      const left = running.remaining(rm.order);
      const body: OwnerEventBody =
        rm.reason === 'expired'
          ? {
              event: 'expired',
              tick,
              continuum_sequence: cs,
              ...orderFields(rm.order),
              remaining: 0n,
              cancelled_quantity: left,
            }
          : {
              event: 'cancelled',
              tick,
              continuum_sequence: cs,
              ...orderFields(rm.order),
              remaining: 0n,
              cancelled_quantity: left,
              reason: 'self_trade',
            };
      out.push({ owner: rm.order.owner, body });
    }
    const left = running.placed(taker, r.filled);
    if (takerFills.length > 0) {
      out.push({
        owner: taker.owner,
        body: {
          event: left === 0n ? 'filled' : 'partially_filled',
          tick,
          continuum_sequence: cs,
          ...orderFields(taker),
          remaining: left,
          filled_quantity: r.filled,
          fills: takerFills,
        },
      });
    }
  }
  return out;
}
