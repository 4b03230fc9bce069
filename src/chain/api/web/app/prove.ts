/**
 * "Verify this transaction" and "verify this order" on the explorer page: fetch the
 * explorer's proof (GET /transactions/:id/proof, GET /markets/:m/orders/:n/proof?owner=)
 * and check it here, in the browser, with the node's standalone verifier module
 * (verifyChainTransactionProof, verifyOrderState, the WASM tick verifier), down to the
 * tick's VDF proof; an order's state is anchored to GET /blocks/:block_height's state_root.
 * The verdict names the first step that fails (docs/proofs.md).
 */
import { loadVerifier } from './verify.js';

export type ProofVerdict = { ok: true; text: string } | { ok: false; step: string; text: string };

/** Proofs are read with plain JSON.parse: their u64 values are decimal strings. */
async function fetchProof(path: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(path, { headers: { accept: 'application/json' } });
    const body = (await res.json().catch(() => ({}))) as { error?: string; pending?: boolean };
    if (res.ok) return body;
    // A tick waiting for its proof: the node says so (404, pending); retry a few times.
    if (res.status === 404 && body.pending === true && attempt < 20) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    throw new Error(`${res.status}: ${body.error ?? res.statusText}`);
  }
}

export async function verifyTransaction(id: string, txHash: string | undefined): Promise<ProofVerdict> {
  const proof = await fetchProof(`/transactions/${encodeURIComponent(id)}/proof`);
  const { mod, v } = await loadVerifier();
  const r = mod.verifyChainTransactionProof(proof, { tickVerifier: v, ...(txHash ? { expectedHash: txHash } : {}) });
  if (!r.ok) return { ok: false, step: r.step, text: `✗ invalid at step ${r.step}: ${r.message}` };
  return {
    ok: true,
    text: `✓ valid: transaction ${r.index} of tick ${r.tick_number} (sequence ${r.sequence_number}), its tick's VDF proof checked`,
  };
}

export async function verifyOrder(marketId: string, orderId: string, owner: string): Promise<ProofVerdict> {
  const proof = (await fetchProof(
    `/markets/${encodeURIComponent(marketId)}/orders/${encodeURIComponent(orderId)}/proof?owner=${encodeURIComponent(owner)}`,
  )) as { block_height?: unknown };
  const height = Number(proof.block_height);
  if (!Number.isSafeInteger(height) || height < 1)
    return { ok: false, step: 'shape', text: '✗ invalid at step shape: block_height: expected a positive integer' };
  const block = (
    (await fetchProof(`/blocks/${height}`)) as { block: { height: number; state_root: number[]; last_tick: number } }
  ).block;
  const { mod, v } = await loadVerifier();
  const r = mod.verifyOrderState(proof, { trustedBlock: block, inclusion: { tickVerifier: v } });
  if (!r.ok) return { ok: false, step: r.step, text: `✗ invalid at step ${r.step}: ${r.message}` };
  const state =
    r.state === 'resting'
      ? 'rests in the book'
      : `is not resting (${r.absence === 'slot' ? 'its slot holds another entry' : r.absence === 'book' ? 'no entry of the book is it' : 'absence not proven'})`;
  return {
    ok: true,
    text: `✓ valid: the order ${state} in block ${r.block_height}'s state${r.ended_by ? `; ended by the transaction in tick ${r.ended_by.tick_number}` : ''}`,
  };
}
