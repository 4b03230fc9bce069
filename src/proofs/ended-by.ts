/**
 * Step `ended_by` of an order state proof (docs/proofs.md): the transaction that ended a
 * not-resting order is included (its own inclusion proof, same tick verifier), in a tick
 * no later than the proven state, and fits the end the node names. Browser-safe.
 */
import { BorshReader } from '../core/browser-safe.js';
import { StepFailure, bytesEqual, hexField, isObject } from './fields.js';
import { verifyChainTransactionProof, verifyInclusion } from './inclusion.js';
import type { InclusionVerdict, OrderEnd, OrderStateStep, VerifyOrderStateOptions } from './interface.js';

const DX = [0x44, 0x58, 0x01];
export const ENDS: readonly OrderEnd[] = ['filled', 'cancelled', 'expired', 'self_trade', 'filled_on_arrival'];

/**
 * The ending transaction is included (its own proof) and fits the end: `cancelled` needs a
 * cancel of this order or a mass cancel (kind 4) of this owner in this market (its side
 * filter is not checked: the proof does not carry the order's side); `filled_on_arrival`
 * the order's own transaction; `filled`,
 * `expired` and `self_trade` an order in this market (the incoming order that met it).
 */
export function checkEndedBy(
  p: unknown,
  options: VerifyOrderStateOptions,
  end: OrderEnd,
  want: {
    marketId: string;
    owner: Uint8Array;
    orderId: bigint;
    baseMint: Uint8Array;
    quoteMint: Uint8Array;
    tickNumber: number;
  },
): InclusionVerdict {
  const step: OrderStateStep = 'ended_by';
  if (!options.inclusion)
    throw new StepFailure(step, 'ended_by needs options.inclusion (a tick verifier) to be checked');
  const v =
    isObject(p) && 'proof' in p
      ? verifyChainTransactionProof(p, options.inclusion)
      : verifyInclusion(p, options.inclusion);
  if (!v.ok) throw new StepFailure(step, `its inclusion proof fails at ${v.step}: ${v.message}`);
  if (v.tick_number > want.tickNumber)
    throw new StepFailure(
      step,
      `the ending transaction is in tick ${v.tick_number}, after the proven state (tick ${want.tickNumber})`,
    );
  const payload = hexField(step, 'ended_by payload', v.payload);
  if (payload.length < 4 || payload[0] !== DX[0] || payload[1] !== DX[1] || payload[2] !== DX[2])
    throw new StepFailure(step, 'the ending transaction is not an order book transaction');
  const kind = payload[3];
  const fits = end === 'cancelled' ? kind === 3 || kind === 4 : kind === 2;
  if (!fits) {
    const by = end === 'cancelled' ? 'a cancel or a mass cancel' : 'an order';
    throw new StepFailure(step, `an order ${end} is ended by ${by}, not this transaction`);
  }
  try {
    const r = new BorshReader(payload.subarray(4));
    if (kind === 4) {
      r.u64(); // request_id
      const owner = r.fixed(32);
      const marketId = r.string(64);
      if (!bytesEqual(owner, want.owner) || marketId !== want.marketId) {
        throw new StepFailure(step, 'the ending mass cancel names another owner or market');
      }
      return v;
    }
    if (kind === 3) {
      const orderId = r.u64();
      const owner = r.fixed(32);
      const marketId = r.string(64);
      if (orderId !== want.orderId || !bytesEqual(owner, want.owner) || marketId !== want.marketId)
        throw new StepFailure(step, 'the ending cancel names another order');
      return v;
    }
    const orderId = r.u64();
    const owner = r.fixed(32);
    r.fixed(1 + 8 + 8 + 8); // side, price, quantity, expiry
    const base = r.fixed(32);
    const quote = r.fixed(32);
    if (!bytesEqual(base, want.baseMint) || !bytesEqual(quote, want.quoteMint))
      throw new StepFailure(step, 'the ending order is in another market');
    if (end === 'filled_on_arrival' && (orderId !== want.orderId || !bytesEqual(owner, want.owner)))
      throw new StepFailure(step, 'a filled_on_arrival order is ended by its own transaction');
    return v;
  } catch (e) {
    if (e instanceof StepFailure) throw e;
    throw new StepFailure(
      step,
      `the ending transaction's payload does not decode: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
