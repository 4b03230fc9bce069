/**
 * "Verify ticks" on a block: fetch the sequencer ticks behind the block's batches
 * (GET /blocks/:height/ticks, page by page) and check them here, in the browser, with the
 * node's standalone WASM verifier (svc-vdf.js + svc-vdf.wasm, served beside this page):
 * every VDF proof, chaining between ticks with consecutive numbers, and that each batch's
 * batch_hash is the transaction_batch_hash its tick's VDF input commits to.
 */
import type { BrowserVerifier } from '../../../../browser/index.js';
import { api, type BlockDetail } from './api.js';

export type VerifierModule = typeof import('../../../../browser/index.js');

let loading: Promise<{ mod: VerifierModule; v: BrowserVerifier }> | undefined;

/** The verifier module and its tick verifier, compiled once per page (the proof buttons use both). */
export function loadVerifier(): Promise<{ mod: VerifierModule; v: BrowserVerifier }> {
  loading ??= (async () => {
    const mod = (await import(new URL('./svc-vdf.js', import.meta.url).href)) as VerifierModule;
    return { mod, v: await mod.createVerifier(new URL('./svc-vdf.wasm', import.meta.url)) };
  })();
  loading.catch(() => (loading = undefined)); // let a later click try again
  return loading;
}

async function verifier(): Promise<BrowserVerifier> {
  return (await loadVerifier()).v;
}

export interface BlockVerdict {
  ok: boolean;
  ticks: number;
  /** Pairs of served ticks with consecutive numbers, whose chaining was checked. */
  chained: number;
  problems: string[];
}

export async function verifyBlock(detail: BlockDetail, progress: (text: string) => void): Promise<BlockVerdict> {
  const height = detail.block.height;
  const ticks: unknown[] = [];
  const hashes = new Map<number, string>();
  for (let offset = 0; ; ) {
    progress(`fetching ticks ${offset + 1}…`);
    const page = await api.ticks(height, offset);
    for (const t of page.ticks) {
      ticks.push(t);
      hashes.set(t.tick_number, t.tick.transaction_batch_hash);
    }
    offset += page.ticks.length;
    if (page.ticks.length === 0 || offset >= page.total) break;
  }
  progress(`verifying ${ticks.length} ticks…`);
  const v = await verifier();
  const verdict = v.verifyTicks(ticks, { gaps: 'report' }); // a block's ticks are sparse: chaining is counted below
  const problems = verdict.ticks.flatMap((t) =>
    t.ok ? [] : [`tick ${t.tickNumber ?? '?'}: ${t.code} ${t.message ?? ''}`.trim()],
  );
  for (const batch of detail.block.batch_summaries) {
    const tickHash = hashes.get(batch.tick_number);
    if (tickHash === undefined) problems.push(`batch ${batch.index}: tick ${batch.tick_number} was not served`);
    else if (tickHash !== batch.batch_hash)
      problems.push(
        `batch ${batch.index}: batch_hash ${batch.batch_hash} is not tick ${batch.tick_number}'s ${tickHash}`,
      );
  }
  let chained = 0;
  for (const n of hashes.keys()) if (hashes.has(n - 1)) chained += 1;
  return { ok: problems.length === 0, ticks: ticks.length, chained, problems };
}
