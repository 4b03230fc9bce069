/**
 * A transaction's inclusion proof for a client (docs/proofs.md): fetch it from a node's
 * REST face (`GET /api/v1/tx/{hash}/proof`), read the answer into one typed value (the
 * proof, pending, unknown or ambiguous), and check the proof with the proof verifier
 * (verifyInclusion), which names the first step that fails. Browser-safe: the global
 * fetch, no node:* imports; the tick verifier (the browser module's createVerifier, WASM)
 * is passed in, so the same code runs in the CLI and in a page.
 *
 * The node is not trusted: a 200 body that is not JSON comes back as the proof it is (a
 * string), and the verifier fails it at `shape`.
 */
import { verifyInclusion } from './inclusion.js';
import type { Failure, InclusionStep, InclusionVerdict, VerifyInclusionOptions } from './interface.js';

/** A proven transaction sharing an ambiguous short hash (the 409 answer). */
export interface ProofCandidate {
  tx_hash: string; // 64 hex
  tick_number: number;
  sequence_number: number;
}

/** What the node answered for a proof request. */
export type TransactionProofAnswer =
  | { status: 'found'; proof: unknown }
  | { status: 'pending'; retryAfterMs: number; message: string }
  | { status: 'unknown'; message: string }
  | { status: 'ambiguous'; candidates: ProofCandidate[]; message: string };

export type InclusionResult = InclusionVerdict | Failure<InclusionStep>;

/** The node answered something other than the documented proof answers (400, 5xx...). */
export class ProofApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProofApiError';
  }
}

/** An 8-hex short hash or a 64-hex full hash, either case: what a proof request takes. */
export function isProofHash(text: string): boolean {
  return /^(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{64})$/.test(text);
}

/** Check a proof held by the caller (fetched, or kept from earlier): docs/proofs.md "Verification". Never throws. */
export function checkTransactionProof(proof: unknown, options: VerifyInclusionOptions): InclusionResult {
  return verifyInclusion(proof, options);
}

export interface ProofClientOptions {
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface WaitOptions {
  /** Keep asking while the answer is `pending` (at the node's Retry-After) for at most this long. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const MIN_RETRY_MS = 50;
const MAX_RETRY_MS = 10_000;

function retryAfterMs(header: string | null): number {
  const seconds = header !== null && /^\d{1,6}$/.test(header.trim()) ? Number(header.trim()) : 1;
  return Math.min(MAX_RETRY_MS, Math.max(MIN_RETRY_MS, seconds * 1000));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function candidatesOf(body: unknown): ProofCandidate[] {
  const list = isObject(body) && Array.isArray(body.candidates) ? body.candidates : [];
  return list.filter(isObject).map((c) => ({
    tx_hash: String(c.tx_hash),
    tick_number: Number(c.tick_number),
    sequence_number: Number(c.sequence_number),
  }));
}

const errorOf = (body: unknown, fallback: string): string =>
  isObject(body) && typeof body.error === 'string' ? body.error : fallback;

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The proof side of a node's REST face at `baseUrl` (e.g. http://127.0.0.1:8080). */
export class TransactionProofClient {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(baseUrl: string, options: ProofClientOptions = {}) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** One request for the proof of `hash` (8 or 64 hex; anything else throws a RangeError before any request). */
  async fetchProof(hash: string, signal?: AbortSignal): Promise<TransactionProofAnswer> {
    if (!isProofHash(hash))
      throw new RangeError(`a transaction hash is 8 or 64 hex characters, got ${hash.length} characters`);
    const res = await this.fetchFn(`${this.base}/api/v1/tx/${hash}/proof`, signal ? { signal } : {});
    const text = await res.text();
    const body = parseJson(text);
    if (res.status === 200) return { status: 'found', proof: body === undefined ? text : body };
    if (res.status === 409)
      return { status: 'ambiguous', candidates: candidatesOf(body), message: errorOf(body, 'ambiguous hash') };
    if (res.status === 404 && isObject(body) && body.pending === true) {
      return {
        status: 'pending',
        retryAfterMs: retryAfterMs(res.headers.get('retry-after')),
        message: errorOf(body, 'not yet in a proven tick'),
      };
    }
    if (res.status === 404) return { status: 'unknown', message: errorOf(body, `no transaction with hash ${hash}`) };
    throw new ProofApiError(res.status, errorOf(body, `HTTP ${res.status}`));
  }

  /** Like fetchProof, asking again while the answer is `pending`, until `timeoutMs` has passed. */
  async waitForProof(hash: string, options: WaitOptions): Promise<TransactionProofAnswer> {
    const until = Date.now() + options.timeoutMs;
    for (;;) {
      const answer = await this.fetchProof(hash, options.signal);
      if (answer.status !== 'pending' || Date.now() + answer.retryAfterMs > until) return answer;
      await sleep(answer.retryAfterMs, options.signal);
    }
  }

  /**
   * Fetch the proof of `hash` (waiting up to `waitMs` while it is pending) and verify it
   * against that hash: `result` is the verifier's verdict when a proof came back.
   */
  async proveTransaction(
    hash: string,
    options: Omit<VerifyInclusionOptions, 'expectedHash'> & { waitMs?: number; signal?: AbortSignal },
  ): Promise<{ answer: TransactionProofAnswer; result?: InclusionResult }> {
    const { waitMs, signal, ...verify } = options;
    const answer = waitMs
      ? await this.waitForProof(hash, { timeoutMs: waitMs, ...(signal ? { signal } : {}) })
      : await this.fetchProof(hash, signal);
    if (answer.status !== 'found') return { answer };
    return { answer, result: checkTransactionProof(answer.proof, { ...verify, expectedHash: hash }) };
  }
}
