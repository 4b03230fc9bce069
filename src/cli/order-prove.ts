/**
 * `svc order prove --market ID --order N --owner KEY`: fetch an order's state proof from
 * the chain explorer (GET /markets/:market_id/orders/:order_id/proof?owner=, docs/proofs.md)
 * and the block it names (GET /blocks/:height), and check it: every step of
 * verifyOrderState, the anchor to that block's state_root, last_tick and
 * last_tick_output_hash, the inclusion proof of the transaction that ended the order down to
 * its tick's VDF proof, and (step ended_by_chain) that tick chained by output through the
 * ticks after it, fetched from the node's REST face (--rest-url, GET /api/v1/tick/N), to the
 * block's anchor.
 *
 * Exit 0 when every step passes (one line, or --json the verdict); 1 with the failing step
 * named (`svc order prove: step book_path: ...`), or when the explorer refuses or cannot be
 * reached (the step is then `fetch`); 2 for a wrong command line. --owner is a Base58
 * public key, or a key NAME or file from `svc keygen`.
 */
import { readFileSync } from 'node:fs';
import { verifyOrderState, type OrderStateProof } from '../proofs/index.js';
import { toBase58Key, UUID_RE } from '../sdk/index.js';
import { createVerifier } from '../browser/index.js';
import { wasmPath } from '../vdf/index.js';
import type { Subcommand } from './command.js';
import { ownerKey, printJson, u64 } from './dex-common.js';
import { CommandFailure, required, UsageError } from './options.js';
import { rpcBase, RPC_URL_OPTION } from './rpc-url.js';
import { REST_URL_OPTION, restBaseUrl } from './tx-prove.js';

/** Ticks fetched at once for step ended_by_chain. */
const TICK_FETCHES = 16;

async function fetchJson(url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new CommandFailure(`step fetch: cannot reach ${url}: ${(err as Error).message}`);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CommandFailure(`step fetch: ${url} answered ${res.status} with no JSON`);
  }
  if (res.status !== 200)
    throw new CommandFailure(
      `step fetch: ${url} answered ${res.status}: ${(json as { error?: string }).error ?? text}`,
    );
  return json;
}

export const prove: Subcommand = {
  spec: {
    name: 'order prove',
    summary: "fetch an order's state proof from the chain explorer and verify it (exit 1 names the failing step)",
    usage: '--market ID --order N --owner KEY [options]',
    options: [
      { name: 'market', short: 'm', type: 'string', value: 'ID', help: 'market_id (a lowercase UUID)' },
      { name: 'order', type: 'string', value: 'N', help: 'the order id, u64' },
      {
        name: 'owner',
        type: 'string',
        value: 'KEY',
        help: 'the owner: a Base58 public key, or a key NAME or file from svc keygen',
      },
      {
        name: 'whole-book',
        type: 'boolean',
        help: 'for an order no longer resting: prove it with every entry of the book (small books)',
      },
      { name: 'json', type: 'boolean', help: 'print the proof and the verdict as JSON' },
      RPC_URL_OPTION,
      { ...REST_URL_OPTION, help: "the node's REST API (/api/v1), for the ticks that chain ended_by to the block" },
    ],
    examples: ['svc order prove --market $M --order 7 --owner alice --rpc-url http://127.0.0.1:8082'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const market = required(v, 'market');
    if (!UUID_RE.test(market)) throw new UsageError('--market must be a lowercase UUID');
    const orderId = u64(required(v, 'order'), 'order');
    const owner = toBase58Key(await ownerKey(required(v, 'owner')));
    const base = rpcBase(v);
    const whole = v['whole-book'] === true ? '&book=whole' : '';
    const proof = (await fetchJson(
      `${base}/markets/${market}/orders/${orderId}/proof?owner=${owner}${whole}`,
    )) as OrderStateProof;
    const height = (proof as { block_height?: unknown }).block_height;
    if (!Number.isSafeInteger(height) || (height as number) < 1)
      throw new CommandFailure('step shape: block_height: expected a positive integer');
    const block = (
      (await fetchJson(`${base}/blocks/${height as number}`)) as {
        block?: { height: number; state_root: number[]; last_tick: number; last_tick_output_hash: string };
      }
    ).block;
    if (!block) throw new CommandFailure(`step anchor: GET /blocks/${height as number} has no block`);
    const tickVerifier = await createVerifier(readFileSync(wasmPath()));
    const endedByTicks = await ticksAfterEndedBy(proof, block.last_tick, restBaseUrl(v['rest-url'] as string));
    const verdict = verifyOrderState(proof, {
      trustedBlock: block,
      inclusion: { tickVerifier },
      ...(endedByTicks ? { endedByTicks } : {}),
    });
    if (!verdict.ok) {
      if (v.json === true) printJson({ proof, verdict });
      throw new CommandFailure(`step ${verdict.step}: ${verdict.message}`);
    }
    if (v.json === true) {
      printJson({ proof, verdict });
      return 0;
    }
    const where =
      verdict.state === 'resting'
        ? `rests in slot ${proof.book!.index}`
        : `is not resting (${proof.end ?? 'end unknown'}; absence ${verdict.absence})`;
    const ended = verdict.ended_by
      ? `, ended by the transaction at sequence ${verdict.ended_by.sequence_number} in tick ${verdict.ended_by.tick_number} (chained to the block's anchor)`
      : '';
    console.log(
      `valid: order ${orderId} of ${owner} in market ${market} ${where} in block ${verdict.block_height} (state_root ${verdict.state_root})${ended}`,
    );
    return 0;
  },
};

/**
 * The ticks after ended_by's tick up to the block's last tick, as GET /api/v1/tick/N serves
 * them (step ended_by_chain), or undefined when the proof has no ended_by. A tick number
 * that is not an integer is left to the verifier (it fails at ended_by).
 */
async function ticksAfterEndedBy(proof: unknown, lastTick: number, rest: string): Promise<unknown[] | undefined> {
  const endedBy = (proof as { ended_by?: { proof?: { tick_number?: unknown }; tick_number?: unknown } }).ended_by;
  if (endedBy === undefined || endedBy === null || typeof endedBy !== 'object') return undefined;
  const n = (endedBy.proof ?? endedBy).tick_number;
  if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > lastTick) return [];
  const numbers = Array.from({ length: lastTick - (n as number) }, (_, i) => (n as number) + 1 + i);
  const out: unknown[] = [];
  for (let i = 0; i < numbers.length; i += TICK_FETCHES) {
    out.push(
      ...(await Promise.all(numbers.slice(i, i + TICK_FETCHES).map((k) => fetchJson(`${rest}/api/v1/tick/${k}`)))),
    );
  }
  return out;
}
