/**
 * The sequencer process's end of the gateway channel (frames.ts): a Unix domain socket
 * server that takes the orders, cancels and mass cancels the gateway processes parsed and
 * checked, runs them through the node's write path (dex/order-entry.ts placeChecked /
 * cancelChecked / cancelAllChecked: state
 * checks, sequencing, matching, the market root) and answers each with what the gateway
 * needs to sign the receipt and write the HTTP answer. This is the only per-order work of
 * the sequencer process on this path; JSON, Base58, ed25519 and HTTP stay in the gateways.
 *
 * A gateway that goes away (kill -9) loses only its answers: what it sent is sequenced and
 * applied all the same, and nothing it had not sent was acknowledged to a client.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { DexRefusal } from '../../index.js';
import type { OrderEntry, Submitted } from '../../index.js';
import { type AppliedTx, decodePayload } from '../../engine/index.js';
import { cancelAllFields, tradeView, type CancelAllSubmitted } from '../../index.js';
import type { Tick } from '../../../core/index.js';
import { decodeBatchRequest, isBatchRequest } from './batch-frames.js';
import { handleBatch, type PreparedItem } from './batch-hub.js';
import {
  decodeRequest,
  encodeApplied,
  encodeRefused,
  encodeSubmitTxReply,
  FrameReader,
  KIND_ORDER,
  TurnWriter,
  type ChannelRequest,
} from './frames.js';
import { KIND_CANCEL_ALL } from './frames.js';

/**
 * The gRPC SubmitTx answer of an applied order, cancel or mass cancel (its stored record,
 * protobuf), for requests of the gRPC order entry (frames.ts, the 0x80 kind bit): the node
 * gives it, since the record is the chain's.
 */
export type SubmitTxAnswer = (continuumSequence: bigint) => Promise<Uint8Array>;

export interface GatewayHub {
  /** Requests taken from gateways so far (metrics, tests). */
  readonly received: number;
  close(): Promise<void>;
}

export async function startHub(
  path: string,
  gateway: OrderEntry,
  logger?: Logger,
  submitTx?: SubmitTxAnswer,
): Promise<GatewayHub> {
  const sockets = new Set<Socket>();
  let received = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const out = new TurnWriter((data) => {
      if (!socket.destroyed) socket.write(data);
    });
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk, (frame) => {
          if (isBatchRequest(frame)) {
            const batch = decodeBatchRequest(frame);
            received += batch.items.length;
            handleBatch(batch, out, {
              roomFor: (from) => gateway.roomFor(from),
              prepare: (req) => prepareItem(req, gateway, batch.from),
              answer: (id, work, rest) => answerItem(id, work, rest, out),
              malformed,
            });
            return;
          }
          received++;
          handle(decodeRequest(frame), gateway, out, submitTx);
        });
      } catch (err) {
        logger?.error({ err }, 'gateway channel: broken frame, closing the connection');
        socket.destroy();
      }
    });
    socket.on('error', (err) => logger?.debug({ err }, 'gateway channel: connection error'));
    socket.on('close', () => sockets.delete(socket));
  });
  await rm(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    get received() {
      return received;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await rm(path, { force: true });
    },
  };
}

function handle(req: ChannelRequest, gateway: OrderEntry, out: TurnWriter, submitTx?: SubmitTxAnswer): void {
  if (req.grpc === true && submitTx === undefined) {
    out.push(encodeRefused({ id: req.id, status: 503, code: 'UNAVAILABLE', message: 'no gRPC order entry here' }));
    return;
  }
  const grpc = req.grpc === true ? submitTx : undefined;
  if (req.kind === KIND_CANCEL_ALL) return handleCancelAll(req, gateway, out, grpc);
  const item = prepareItem(req, gateway);
  if (item === undefined) out.push(malformed(req.id));
  else answerItem(req.id, item.start(false), item.rest, out, grpc);
}

/** A request's call into the order entry (not started yet) and its answer's other fields; undefined if its payload does not decode. */
function prepareItem(req: ChannelRequest, gateway: OrderEntry, from = req.from): PreparedItem | undefined {
  const d = decodePayload(req.payload);
  if (req.kind === KIND_ORDER && d?.kind === 'order') {
    return {
      key: { kind: 'order', owner: d.intent.owner, orderId: d.intent.orderId },
      start: () => gateway.placeChecked(d.intent, req.payload, req.nonce, req.signatureValid, { root: true, from }),
      rest: (s) => orderRest(s as Awaited<ReturnType<OrderEntry['placeOrder']>>),
    };
  }
  if (req.kind !== KIND_ORDER && d?.kind === 'cancel') {
    return {
      key: { kind: 'cancel', owner: d.owner, orderId: d.orderId },
      start: (judgeNow) =>
        gateway.cancelChecked(d.orderId, d.owner, d.marketId, req.payload, req.nonce, req.signatureValid, {
          root: true,
          from,
          judgeNow,
        }),
      rest: (s) =>
        `{"order_id":"${d.orderId}","cancelled_quantity":"${(s as Awaited<ReturnType<OrderEntry['cancelOrder']>>).outcome.cancelled}"}`,
    };
  }
  return undefined;
}

/** A mass cancel (never a batch item): cancelAllChecked, answered with what it ended. */
function handleCancelAll(req: ChannelRequest, gateway: OrderEntry, out: TurnWriter, grpc?: SubmitTxAnswer): void {
  const d = decodePayload(req.payload);
  if (d?.kind !== 'cancel_all') {
    out.push(malformed(req.id));
    return;
  }
  const data = {
    requestId: d.requestId,
    owner: d.owner,
    marketId: d.marketId,
    ...(d.side !== undefined ? { side: d.side } : {}),
  };
  const work = gateway.cancelAllChecked(data, req.payload, req.nonce, req.signatureValid, {
    root: true,
    from: req.from,
  });
  answerItem(req.id, work, (s) => JSON.stringify(cancelAllFields(s as CancelAllSubmitted)), out, grpc);
}

/** The refusal of a request whose payload does not decode (a broken gateway). */
function malformed(id: number): Buffer {
  return encodeRefused({
    id,
    status: 400,
    code: 'MALFORMED',
    message: 'the gateway sent a payload that does not decode',
  });
}

/** Reply to request `id` once its work settles: the receipt's fields, or with `grpc` the SubmitTx answer. */
function answerItem(
  id: number,
  work: Promise<Submitted & { outcome: unknown }>,
  rest: PreparedItem['rest'],
  out: TurnWriter,
  grpc?: SubmitTxAnswer,
): void {
  const refuse = (err: unknown): void => {
    const e = err instanceof DexRefusal ? err : new DexRefusal('INTERNAL', 'internal error');
    out.push(encodeRefused({ id, status: e.status, code: e.code, message: e.message, replay: e.replay }));
  };
  if (grpc !== undefined) {
    work.then((s) => grpc(s.applied.continuumSequence)).then((r) => out.push(encodeSubmitTxReply(id, r)), refuse);
    return;
  }
  work.then((s) => out.push(applied(id, s.applied, s.tick, rest(s))), refuse);
}

function applied(id: number, a: AppliedTx, tick: Tick, rest: string): Buffer {
  if (a.marketRoot === undefined) throw new Error('applied order without a market root');
  return encodeApplied({
    id,
    tickNumber: BigInt(tick.tickNumber),
    tickTimestampMs: BigInt(Math.floor(tick.timestamp / 1000)),
    merkleRoot: a.marketRoot,
    continuumSequence: a.continuumSequence,
    txHash: a.otx.txHash,
    rest,
  });
}

function orderRest(s: Awaited<ReturnType<OrderEntry['placeOrder']>>): string {
  const o = s.outcome;
  return JSON.stringify({
    status: o.result.status,
    filled_quantity: o.result.filled.toString(),
    remaining_quantity: (o.order.quantity - o.result.filled).toString(),
    trades: o.result.trades.map((t) => tradeView(o.market.info.marketId, t)),
  });
}
