/**
 * A full node's order book writes, sent to the leader (--follow-dex URL, the leader's
 * order book API): POST /orders, /orders/cancel, /orders/batch and /markets on the follower's --dex-addr
 * are relayed to the leader with the same body, and the leader's status and body come back
 * unchanged, so the user gets the leader's answer and the leader's receipt (which verifies
 * against the leader's key, GET /health's public_key there). The follower shows the order
 * once the tick carrying it reaches it. Also keeps the leader's /health identity for this
 * node's /health (`leader`).
 *
 * Hostile input: bodies above the face's limit get 413 before anything is sent; a leader
 * that does not answer gives 503 UNAVAILABLE naming it; a slow leader 504 after the timeout.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BATCH_BYTES } from '../dex/index.js';

const WRITES = new Set(['/orders', '/orders/cancel', '/orders/batch', '/markets']);
const TIMEOUT_MS = 30_000;
const HEALTH_EVERY_MS = 5_000;

export interface LeaderIdentity {
  dex_url: string;
  sequencer_id?: string;
  public_key?: string;
  public_key_hex?: string;
}

export interface DexForwarder {
  /** Handles the request if it is a write; false: not ours, serve it locally. */
  intercept(req: IncomingMessage, res: ServerResponse): boolean;
  /** The leader's identity for /health, as last fetched. */
  leader(): LeaderIdentity;
  close(): void;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

export function dexForwarder(leaderUrl: string, bodyLimit: number): DexForwarder {
  const base = leaderUrl.replace(/\/+$/, '');
  let identity: LeaderIdentity = { dex_url: base };
  const refresh = async (): Promise<void> => {
    try {
      const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) });
      const body = (await r.json()) as {
        data?: { sequencer_id?: string; public_key?: string; public_key_hex?: string };
      };
      if (body.data)
        identity = {
          dex_url: base,
          sequencer_id: body.data.sequencer_id,
          public_key: body.data.public_key,
          public_key_hex: body.data.public_key_hex,
        };
    } catch {
      // keep the last known identity; /health shows dex_url alone until it answers
    }
  };
  void refresh();
  const timer = setInterval(() => void refresh(), HEALTH_EVERY_MS).unref();

  const forward = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const limit = path === '/orders/batch' ? MAX_BATCH_BYTES : bodyLimit;
    const body = await readBody(req, limit).catch(() => null);
    if (body === null) return; // client went away
    if (body === undefined)
      return send(res, 413, { ok: false, error: `request body over ${limit} bytes`, code: 'PAYLOAD_TOO_LARGE' });
    try {
      const r = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = Buffer.from(await r.arrayBuffer());
      res.statusCode = r.status;
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Content-Type', r.headers.get('content-type') ?? 'application/json; charset=utf-8');
      res.setHeader('Content-Length', text.length);
      res.end(text);
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      send(res, timedOut ? 504 : 503, {
        ok: false,
        error: timedOut
          ? `the leader at ${base} did not answer in ${TIMEOUT_MS / 1000} s`
          : `the leader at ${base} is unreachable: ${(err as Error).message}`,
        code: 'UNAVAILABLE',
      });
    }
  };

  return {
    intercept(req, res) {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method !== 'POST' || !WRITES.has(path)) return false;
      void forward(req, res, path);
      return true;
    },
    leader: () => identity,
    close: () => clearInterval(timer),
  };
}
