/**
 * `svc tx prove HASH`: fetch a transaction's inclusion proof from the node's REST face
 * (docs/proofs.md) with the SDK's proof client, or read one kept in a file
 * (--proof-file), and verify it step by step down to its tick's VDF proof with the
 * existing tick verifier (the browser verifier's createVerifier over build/vdf.wasm).
 * Exit 0: every step passes; 1: a step fails (named), or the node has no proof to give
 * (unknown, pending, ambiguous, unreachable); 2: the command line is wrong.
 */
import {
  isProofHash,
  ProofApiError,
  TransactionProofClient,
  checkTransactionProof,
  type InclusionResult,
  type TransactionProofAnswer,
} from '../proofs/index.js';
import { createVerifier } from '../browser/index.js';
import { vdfWasmModule } from '../vdf/index.js';
import type { Subcommand } from './command.js';
import { readFileOrStdin } from './input.js';
import { CommandFailure, optional, UsageError, type OptionSpec, type Values } from './options.js';

export const DEFAULT_REST_URL = 'http://127.0.0.1:8080';

export const REST_URL_OPTION: OptionSpec = {
  name: 'rest-url',
  type: 'string',
  value: 'URL',
  help: "the node's REST API (/api/v1)",
  default: DEFAULT_REST_URL,
  env: 'SVC_REST_URL',
};

/** How long --wait keeps asking while the proof is pending. */
const WAIT_MS = 30_000;

/** --rest-url as a base URL: `host:port` or `http(s)://host:port[/prefix]`; anything else is a usage error. */
export function restBaseUrl(text: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`--rest-url must be host:port or http://host:port, got '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--rest-url must be http:// or https://, got '${text}'`);
  if (url.search || url.hash) throw new UsageError(`--rest-url takes no query or fragment, got '${text}'`);
  return url.href.replace(/\/+$/, '');
}

/** The proof from the node, or the reason there is none as a CommandFailure. */
function proofOf(answer: TransactionProofAnswer, hash: string, where: string): unknown {
  switch (answer.status) {
    case 'found':
      return answer.proof;
    case 'pending':
      throw new CommandFailure(
        `transaction ${hash} is not yet in a proven tick on ${where}; retry shortly (or give --wait)`,
      );
    case 'unknown':
      throw new CommandFailure(`no transaction with hash ${hash} in a proven tick on ${where}`);
    case 'ambiguous': {
      const list = answer.candidates
        .map((c) => `${c.tx_hash} (tick ${c.tick_number}, sequence ${c.sequence_number})`)
        .join(', ');
      throw new CommandFailure(
        `${answer.candidates.length} proven transactions share the hash ${hash}: ${list}; ask with the full 64-hex hash`,
      );
    }
  }
}

function report(result: InclusionResult, json: boolean): number {
  if (json) console.log(JSON.stringify(result));
  if (!result.ok) throw new CommandFailure(`the proof is INVALID at step ${result.step}: ${result.message}`);
  if (!json) {
    console.log(
      [
        `tx ${result.tx_hash}: proof valid: in tick ${result.tick_number} at index ${result.index} (sequence ${result.sequence_number}); the tick's VDF proof verifies`,
        `  tx_id       ${result.tx_id}`,
        `  public_key  ${result.public_key || '(empty)'}`,
        `  payload     ${result.payload.length / 2} bytes`,
      ].join('\n'),
    );
  }
  return 0;
}

async function readProofFile(path: string): Promise<unknown> {
  const text = await readFileOrStdin(path);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`${path === '-' ? 'stdin' : path}: not valid JSON (${(err as Error).message})`);
  }
}

export const prove: Subcommand = {
  spec: {
    name: 'tx prove',
    summary: "fetch a transaction's inclusion proof and verify it down to its tick's VDF proof",
    usage: '[options] TX_HASH',
    description:
      'Asks the node over REST (GET /api/v1/tx/{hash}/proof; the hash is the 8-hex tx_hash or the\n' +
      "full 64-hex SHA-256) and checks the proof as docs/proofs.md says: the transaction's bytes\n" +
      'and hash, the audit path to the batch hash, the batch hash and count against the tick, and\n' +
      "the tick's bound header and VDF proof. Exits 0 when every step passes, 1 naming the first\n" +
      'step that fails (or when the node has no proof: unknown, not yet proven, ambiguous).\n' +
      '--proof-file checks a proof kept earlier instead of fetching one (TX_HASH is then optional).',
    options: [
      {
        name: 'proof-file',
        type: 'string',
        value: 'FILE',
        help: "verify this proof (JSON; '-' reads stdin) instead of asking the node",
      },
      {
        name: 'wait',
        short: 'w',
        type: 'boolean',
        help: `while the transaction's tick is not proven yet, ask again (up to ${WAIT_MS / 1000} s)`,
      },
      { name: 'json', type: 'boolean', help: 'print the verdict as JSON ({ok, ...} or {ok: false, step, message})' },
      REST_URL_OPTION,
    ],
    examples: [
      'svc tx prove 1a2b3c4d',
      'svc tx prove $(svc tx send --payload hi --wait -q) --wait',
      'svc tx prove --proof-file proof.json 1a2b3c4d',
    ],
  },
  async run(v: Values, positionals: string[]) {
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const hash = positionals[0];
    const file = optional(v, 'proof-file');
    if (hash === undefined && file === undefined) throw new UsageError('give one TX_HASH (8 or 64 hex characters)');
    if (hash !== undefined && !isProofHash(hash)) {
      throw new UsageError(
        `TX_HASH must be 8 or 64 hex characters (the short or the full hash), got '${hash.length > 70 ? `${hash.slice(0, 70)}…` : hash}'`,
      );
    }
    const base = restBaseUrl(optional(v, 'rest-url')!);
    let proof: unknown;
    if (file !== undefined) proof = await readProofFile(file);
    else {
      const client = new TransactionProofClient(base);
      try {
        const answer = v.wait
          ? await client.waitForProof(hash!, { timeoutMs: WAIT_MS })
          : await client.fetchProof(hash!);
        proof = proofOf(answer, hash!, base);
      } catch (err) {
        if (err instanceof ProofApiError) throw new CommandFailure(`the node answered ${err.status}: ${err.message}`);
        const cause = (err as { cause?: { message?: string } }).cause;
        if (err instanceof TypeError && cause)
          throw new CommandFailure(`cannot reach ${base}: ${cause.message ?? String(cause)}: is the node running?`);
        throw err;
      }
    }
    const tickVerifier = await createVerifier(vdfWasmModule());
    return report(
      checkTransactionProof(proof, { tickVerifier, ...(hash !== undefined ? { expectedHash: hash } : {}) }),
      v.json === true,
    );
  },
};
