/**
 * The HTTP handler of a gateway process on the order book port (docs/dex-api.md).
 *
 * POST /orders, POST /orders/cancel and POST /orders/cancel-all are done here: body checks, JSON validation, Base58,
 * Borsh, the ed25519 check of the owner's signature; the checked order goes to the
 * sequencer process over the channel (channel.ts), and with its applied reply this process
 * builds and signs the receipt (the node key) and writes the answer. Answers and codes are
 * those of the single-process face (src/dex/api/http.ts): the state checks and their order run
 * in the sequencer process (dex/order-entry.ts placeChecked), given this process's signature
 * verdict.
 *
 * Every other request (reads of the engine's state, POST /markets, /health, /openapi.json,
 * CORS preflights) is forwarded as is to the sequencer process's own HTTP server on a Unix
 * socket, which answers exactly as the single-process face does.
 */
import {
  request as httpRequest,
  Agent,
  type IncomingMessage,
  type ServerResponse,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { Logger } from 'pino';
import { sha256 } from '../../../crypto/index.js';
import { DexRefusal, ClientGoneError } from '../../index.js';
import { DEFAULT_BODY_LIMIT, readJsonBody, sendError, sendJsonText } from '../index.js';
import { digestNonce } from '../../index.js';
import type { NodeKey } from '../../index.js';
import { receiptJson } from '../../index.js';
import { parseCancel, parseCancelAll, parsePlaceOrder } from '../../index.js';
import { encodeCancelAll, encodeCancelPayload, encodePlaceOrder } from '../../engine/index.js';
import { CANCEL_ALL_PREFIX, encodeCancelAllData } from '../../../core/index.js';
import {
  cancelMessage,
  encodeOrderIntent,
  receiptMessage,
  signingMessage,
  ORDER_PREFIX,
  type ReceiptData,
} from '../../../core/index.js';
import { signBatch, verifyOne } from '../../../crypto/index.js';
import type { SequencerChannel } from './channel.js';
import { createBatchRoute } from './batch-http.js';
import { httpReply, KIND_CANCEL, KIND_CANCEL_ALL, KIND_ORDER, type ChannelReply } from './frames.js';

export interface GatewayHttpOptions {
  channel: SequencerChannel;
  key: NodeKey;
  /** The sequencer process's HTTP server (Unix socket path) for everything else. */
  upstreamSocket: string;
  bodyLimit?: number;
  logger?: Logger;
  /** Called once per request whose client went away mid-body (counted by the sequencer process). */
  onClientGone?: () => void;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

function withoutHopByHop(h: IncomingMessage['headers']): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

export function createGatewayHandler(opts: GatewayHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const { channel, key } = opts;

  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    if (err instanceof ClientGoneError) {
      opts.onClientGone?.();
      opts.logger?.debug({ method: req.method, url: req.url }, 'gateway: client disconnected mid-request (aborted)');
      return;
    }
    const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
    if (!(err instanceof DexRefusal)) opts.logger?.error({ err }, 'gateway: unhandled error');
    if (!res.headersSent && !res.destroyed) sendError(res, e);
  };

  /** The answer envelope of an applied reply: the receipt signed here, the rest from the sequencer. */
  const answer = (res: ServerResponse, channelReply: ChannelReply, orderId: bigint, owner: Uint8Array): void => {
    const reply = httpReply(channelReply);
    if (reply.type === 0) {
      sendJsonText(res, reply.status, JSON.stringify({ ok: false, error: reply.message, code: reply.code }));
      return;
    }
    const data: ReceiptData = {
      orderId,
      owner,
      timestampMs: reply.tickTimestampMs,
      sequencerId: key.sequencerId,
      merkleRoot: reply.merkleRoot,
      tickNumber: reply.tickNumber,
      continuumSequence: reply.continuumSequence,
      txHash: reply.txHash,
    };
    const receipt = receiptJson(data, signBatch({ seed: key.secretKey, messages: [receiptMessage(data, sha256)] })[0]!);
    const rest = reply.rest.length > 2 ? `,${reply.rest.slice(1)}` : '}';
    sendJsonText(res, 200, `{"ok":true,"data":{"receipt":${JSON.stringify(receipt)}${rest}}`);
  };

  /** The body, unless this address holds its share here: then the refusal, before any parsing or signature check. */
  const readBody = async (req: IncomingMessage): Promise<unknown> => {
    const body = await readJsonBody(req, limit);
    const full = channel.refusal(req.socket.remoteAddress ?? '');
    if (full !== undefined) throw full;
    return body;
  };

  const placeOrder = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const { intent, signature } = parsePlaceOrder(await readBody(req));
      const borsh = encodeOrderIntent(intent); // once: the signing digest and the payload
      const message = signingMessage(ORDER_PREFIX, borsh, sha256);
      const valid = verifyOne({ publicKey: intent.owner, message, signature });
      const from = req.socket.remoteAddress ?? '';
      const reply = await channel.send({
        kind: KIND_ORDER,
        signatureValid: valid,
        nonce: digestNonce(message),
        from,
        payload: encodePlaceOrder(borsh, signature),
      });
      answer(res, reply, intent.orderId, intent.owner);
    } catch (err) {
      fail(req, res, err);
    }
  };

  const cancelOrder = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const c = parseCancel(await readBody(req));
      const message = cancelMessage({ orderId: c.orderId, owner: c.owner, marketId: c.marketId }, sha256);
      const valid = verifyOne({ publicKey: c.owner, message, signature: c.signature });
      const payload = encodeCancelPayload(c.orderId, c.owner, c.marketId, c.signature);
      const reply = await channel.send({
        kind: KIND_CANCEL,
        signatureValid: valid,
        nonce: digestNonce(message),
        from: req.socket.remoteAddress ?? '',
        payload,
      });
      answer(res, reply, c.orderId, c.owner);
    } catch (err) {
      fail(req, res, err);
    }
  };

  const cancelAll = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const { data, signature } = parseCancelAll(await readBody(req));
      const borsh = encodeCancelAllData(data);
      const message = signingMessage(CANCEL_ALL_PREFIX, borsh, sha256);
      const signatureValid = verifyOne({ publicKey: data.owner, message, signature });
      const payload = encodeCancelAll(borsh, signature);
      const from = req.socket.remoteAddress ?? '';
      const nonce = digestNonce(message);
      const reply = await channel.send({ kind: KIND_CANCEL_ALL, signatureValid, nonce, from, payload });
      answer(res, reply, data.requestId, data.owner); // the receipt's order_id is the request_id
    } catch (err) {
      fail(req, res, err);
    }
  };

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const up = httpRequest(
      {
        socketPath: opts.upstreamSocket,
        agent,
        method: req.method,
        path: req.url,
        headers: withoutHopByHop(req.headers),
      },
      (ures) => {
        res.writeHead(ures.statusCode ?? 502, withoutHopByHop(ures.headers));
        ures.pipe(res);
      },
    );
    up.on('error', (err) => {
      opts.logger?.debug({ err }, 'gateway: forwarding failed');
      if (!res.headersSent && !res.destroyed)
        sendError(res, new DexRefusal('UNAVAILABLE', 'the order book is not reachable from this gateway; retry'));
      else res.destroy();
    });
    req.on('aborted', () => up.destroy());
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  };

  const placeBatch = createBatchRoute({ channel, key, fail });

  return (req, res) => {
    if (req.method === 'POST' && req.url === '/orders') void placeOrder(req, res);
    else if (req.method === 'POST' && req.url === '/orders/batch') void placeBatch(req, res);
    else if (req.method === 'POST' && req.url === '/orders/cancel') void cancelOrder(req, res);
    else if (req.method === 'POST' && req.url === '/orders/cancel-all') void cancelAll(req, res);
    else forward(req, res);
  };
}
