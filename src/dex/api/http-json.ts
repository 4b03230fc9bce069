/**
 * The order book's JSON over HTTP without a framework (shared by the Koa face, its fast
 * POST /orders path and the gateway processes, which should not load Koa): reading a
 * JSON body within a byte limit (415/413/400, a client gone mid-body), and writing a
 * JSON answer with the API's headers (CORS, content type and length, Retry-After on 503).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DexRefusal, ClientGoneError } from '../index.js';

export const DEFAULT_BODY_LIMIT = 16 * 1024;
/** Retry-After (seconds) of a 503: the queue is full or the node is stopping. */
export const RETRY_AFTER_S = 1;

/** A JSON answer with the order book's headers (CORS, content type and length). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_S));
  res.end(text);
}

/** The error envelope of `e`. */
export function sendError(res: ServerResponse, e: DexRefusal): void {
  sendJsonText(res, e.status, JSON.stringify({ ok: false, error: e.message, code: e.code }));
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new DexRefusal('UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new DexRefusal('BODY_TOO_LARGE', `the body exceeds ${limit} bytes`);
  const chunks: Buffer[] = [];
  // With a Content-Length within the limit (Node's parser delivers exactly that many bytes),
  // read with plain events, cheaper than an async iterator; without one (chunked), count.
  // A client that goes away mid-body ('aborted' error, or a close before the end) is a
  // ClientGoneError, whatever Node calls it.
  if (req.headers['content-length'] !== undefined && !req.headers['transfer-encoding']) {
    await new Promise<void>((resolve, reject) => {
      req.on('data', (c: Buffer) => chunks.push(c));
      req.once('end', resolve);
      req.once('error', () => reject(new ClientGoneError()));
      req.once('close', () => {
        if (!req.complete) reject(new ClientGoneError());
      });
    });
  } else {
    let size = 0;
    try {
      for await (const chunk of req) {
        const c = chunk as Buffer;
        size += c.length;
        if (size > limit) throw new DexRefusal('BODY_TOO_LARGE', `the body exceeds ${limit} bytes`);
        chunks.push(c);
      }
    } catch (err) {
      throw err instanceof DexRefusal ? err : new ClientGoneError();
    }
    if (!req.complete) throw new ClientGoneError();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DexRefusal('INVALID_JSON', 'the body is not valid JSON');
  }
}
