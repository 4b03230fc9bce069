/**
 * POST /orders/batch in a gateway process (docs/dex-api.md "Batches"): the body parsed
 * item by item (src/dex/batch.ts), each item's signature checked and its payload built as
 * for POST /orders and POST /orders/cancel (http.ts), the checked items sent to the node
 * process as one batch frame (channel.ts sendBatch), and the answer written once every
 * item has its reply: 200 with one result per item, in order, each the single call's
 * answer (its receipt signed here, all of the batch's receipts in one signing pass) or its
 * refusal with the single call's status and code. A batch refused whole (over a limit, the
 * fair share full, the node gone) is answered with that refusal alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sha256, signBatch, verifyOne } from '../../../crypto/index.js';
import {
  DexRefusal,
  digestNonce,
  itemError,
  MAX_BATCH_BYTES,
  parseBatch,
  receiptJson,
  type BatchItem,
} from '../../index.js';
import { readJsonBody, sendJsonText } from '../index.js';
import type { NodeKey } from '../../index.js';
import { encodeCancelPayload, encodePlaceOrder } from '../../engine/index.js';
import {
  cancelMessage,
  encodeOrderIntent,
  ORDER_PREFIX,
  receiptMessage,
  signingMessage,
  type ReceiptData,
} from '../../../core/index.js';
import type { SequencerChannel } from './channel.js';
import { httpReply, KIND_CANCEL, KIND_ORDER, type ChannelReply, type ChannelRequest } from './frames.js';

export interface BatchHttpParts {
  channel: SequencerChannel;
  key: NodeKey;
  /** The error path of the gateway's other routes (a client gone, an unexpected error, the envelope). */
  fail(req: IncomingMessage, res: ServerResponse, err: unknown): void;
}

type Checked = { request: Omit<ChannelRequest, 'id' | 'from'>; orderId: bigint; owner: Uint8Array };

export function createBatchRoute(parts: BatchHttpParts): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { channel, key } = parts;
  return async (req, res) => {
    try {
      const items = parseBatch(await readJsonBody(req, MAX_BATCH_BYTES));
      const checked = items.map((it) => (it instanceof DexRefusal ? it : check(it)));
      const sent = checked.filter((c): c is Checked => !(c instanceof DexRefusal));
      const fate = await channel.sendBatch(
        req.socket.remoteAddress ?? '',
        sent.map((c) => c.request),
      );
      if ('refused' in fate) {
        const r = fate.refused;
        sendJsonText(res, r.status, JSON.stringify({ ok: false, error: r.message, code: r.code }));
        return;
      }
      const replies = await Promise.all(fate.replies);
      sendJsonText(res, 200, `{"ok":true,"data":{"results":[${answers(checked, replies, key).join(',')}]}}`);
    } catch (err) {
      parts.fail(req, res, err);
    }
  };
}

/** The single call's checks of one item: its signature verdict, payload and nonce. */
function check(it: BatchItem): Checked {
  if (it.kind === 'order') {
    const borsh = encodeOrderIntent(it.intent);
    const message = signingMessage(ORDER_PREFIX, borsh, sha256);
    const signatureValid = verifyOne({ publicKey: it.intent.owner, message, signature: it.signature });
    const request = {
      kind: KIND_ORDER,
      signatureValid,
      nonce: digestNonce(message),
      payload: encodePlaceOrder(borsh, it.signature),
    } as const;
    return { request, orderId: it.intent.orderId, owner: it.intent.owner };
  }
  const message = cancelMessage({ orderId: it.orderId, owner: it.owner, marketId: it.marketId }, sha256);
  const signatureValid = verifyOne({ publicKey: it.owner, message, signature: it.signature });
  const payload = encodeCancelPayload(it.orderId, it.owner, it.marketId, it.signature);
  return {
    request: { kind: KIND_CANCEL, signatureValid, nonce: digestNonce(message), payload },
    orderId: it.orderId,
    owner: it.owner,
  };
}

/** Each item's result text, in the batch's order; the applied ones' receipts signed in one pass. */
function answers(checked: Array<Checked | DexRefusal>, replies: ChannelReply[], key: NodeKey): string[] {
  const receipts: ReceiptData[] = [];
  let next = 0;
  const parts = checked.map((c): string | { data: ReceiptData; rest: string } => {
    if (c instanceof DexRefusal) return JSON.stringify(itemError(c));
    const r = httpReply(replies[next++]!);
    if (r.type === 0) return JSON.stringify({ ok: false, error: r.message, code: r.code, status: r.status });
    const data: ReceiptData = {
      orderId: c.orderId,
      owner: c.owner,
      timestampMs: r.tickTimestampMs,
      sequencerId: key.sequencerId,
      merkleRoot: r.merkleRoot,
      tickNumber: r.tickNumber,
      continuumSequence: r.continuumSequence,
      txHash: r.txHash,
    };
    receipts.push(data);
    return { data, rest: r.rest };
  });
  const messages = receipts.map((d) => receiptMessage(d, sha256));
  const signatures = messages.length === 0 ? [] : signBatch({ seed: key.secretKey, messages });
  let s = 0;
  return parts.map((p) => {
    if (typeof p === 'string') return p;
    const receipt = JSON.stringify(receiptJson(p.data, signatures[s++]!));
    const rest = p.rest.length > 2 ? `,${p.rest.slice(1)}` : '}';
    return `{"ok":true,"data":{"receipt":${receipt}${rest}}`;
  });
}
