/**
 * svc.chain.v1.ChainService (proto/svc/chain/v1/chain.proto) on the node's one gRPC
 * server: SubmitTx and StreamTx.
 *
 * SubmitTx takes the same signed bytes as the order book API and goes through the same
 * write path (dex/order-entry.ts); it answers once the transaction's tick is applied, with
 * its chain record as derived (its write follows). Status codes (docs/chain.md "gRPC"):
 *   INVALID_ARGUMENT    malformed request or bytes, bad field values, expired order
 *   UNAUTHENTICATED     no signature, or one that does not verify for the owner
 *   ALREADY_EXISTS      replays: an order id this owner used, the same signed order or
 *                       cancel twice, a market for an existing pair
 *   NOT_FOUND           unknown market, or an order id this owner never used there
 *   FAILED_PRECONDITION cancel of an order no longer open
 *   RESOURCE_EXHAUSTED  the per-peer rate limit (--submit-tx-rate, --stream-tx-rate), too
 *                       many streams, the address's fair share of --max-pending (docs/
 *                       dex-api.md "Overload"; never sequenced), the sequencer's queue is full
 *   UNAVAILABLE         the node is starting (chain not ready) or shutting down
 *   DEADLINE_EXCEEDED   accepted, but its tick did not come within 30 s
 */
import {
  Metadata,
  status as grpcStatus,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import type { MethodDefinition, ServiceDefinition } from '@grpc/proto-loader';
import type { Logger } from 'pino';
import { DexRefusal, type DexRefusalCode } from '../../../dex/index.js';
import type { OrderEntry } from '../../../dex/index.js';
import type { Chain } from '../../core/index.js';
import { checkMessage, peerAddress } from '../../../wire/index.js';
import { chainServiceDefinition } from '../client/index.js';
import { CHAIN_REQUEST_SCHEMAS } from './requests.js';
import { PeerRateLimiter } from './rate-limit.js';
import { serveTxStream, type TxStreamQueue } from './stream-tx.js';
import { TxFeed } from './tx-feed.js';
import { encodeSubmitTxResponse } from './encode.js';
import {
  checkSubmitTx,
  SUBMIT_TX_PER_TASK,
  type CheckedSubmitTx,
  type SignedOff,
  type SubmitTxRequest,
} from './submit-check.js';
import { batchTooLarge, submitTxBatchHandler } from './submit-batch.js';
import { MAX_BATCH_BYTES } from '../../../dex/index.js';
import { ArrivalQueue, MAX_ARRIVALS_WAITING, isIntakeRefusal, type IntakePool } from '../../../intake/index.js';

type Status = Partial<ServiceError> & { code: grpcStatus; details: string };
type Malformed = { malformed: string };

/** What the service needs once the chain runs (undefined while the node starts). */
export interface ChainBackend {
  chain: Chain;
  gateway: OrderEntry;
}

export interface ChainServiceOptions {
  backend: () => ChainBackend | undefined;
  logger: Logger;
  submitRate: number; // SubmitTx per second per peer (0 = unlimited)
  streamRate: number; // StreamTx calls opened per minute per peer (0 = unlimited)
  maxStreams?: number; // open StreamTx calls at most (default 1024)
  maxStreamsPerPeer?: number; // default 16
  streamQueue?: TxStreamQueue;
  /** Intake threads: SubmitTx requests arrive as bytes (chainDefinition(true)) and are checked there. */
  intake?: IntakePool;
}

export const MAX_TX_STREAMS = 1024;
export const MAX_TX_STREAMS_PER_PEER = 16;

const CODES: Partial<Record<DexRefusalCode, grpcStatus>> = {
  BAD_SIGNATURE: grpcStatus.UNAUTHENTICATED,
  ORDER_REPLAYED: grpcStatus.ALREADY_EXISTS,
  DUPLICATE_MARKET: grpcStatus.ALREADY_EXISTS,
  UNKNOWN_MARKET: grpcStatus.NOT_FOUND,
  UNKNOWN_ORDER: grpcStatus.NOT_FOUND,
  ORDER_NOT_OPEN: grpcStatus.FAILED_PRECONDITION,
  CANCEL_ALL_REPLAYED: grpcStatus.ALREADY_EXISTS,
  QUEUE_FULL: grpcStatus.RESOURCE_EXHAUSTED,
  UNAVAILABLE: grpcStatus.UNAVAILABLE,
  TIMEOUT: grpcStatus.DEADLINE_EXCEEDED,
  INTERNAL: grpcStatus.INTERNAL,
};

/** Metadata key of the retry hint on RESOURCE_EXHAUSTED and UNAVAILABLE answers (milliseconds). */
export const RETRY_AFTER_MS_KEY = 'retry-after-ms';
export const RETRY_AFTER_MS = 1000;

function retryHint(): Metadata {
  const m = new Metadata();
  m.set(RETRY_AFTER_MS_KEY, String(RETRY_AFTER_MS));
  return m;
}

/** gRPC status of an order book refusal; the rest are INVALID_ARGUMENT. */
export function grpcStatusOf(err: DexRefusal): grpcStatus {
  if (err.replay) return grpcStatus.ALREADY_EXISTS;
  return CODES[err.code] ?? grpcStatus.INVALID_ARGUMENT;
}

const passthrough = (value: Buffer): Buffer => value;

/**
 * The service definition: each request checked by the strict protobuf reader (./requests.ts),
 * then decoded by proto-loader, never throwing; our own response encoding.
 */
export function chainDefinition(rawSubmitTx = false): ServiceDefinition {
  const base = chainServiceDefinition();
  const out: Record<string, MethodDefinition<object, object>> = {};
  for (const [name, def] of Object.entries(base) as Array<[string, MethodDefinition<object, object>]>) {
    const schema = CHAIN_REQUEST_SCHEMAS[name];
    if (!schema) throw new Error(`no request schema for ChainService/${name}`);
    if (rawSubmitTx && name === 'SubmitTx') {
      out[name] = { ...def, requestDeserialize: passthrough as never, responseSerialize: passthrough as never };
      continue;
    }
    out[name] = {
      ...def,
      requestDeserialize: (buf: Buffer) => {
        if (name === 'SubmitTxBatch' && buf.length > MAX_BATCH_BYTES) return { malformed: batchTooLarge(buf.length) };
        try {
          checkMessage(schema, buf);
          return def.requestDeserialize(buf);
        } catch (err) {
          return { malformed: `malformed ${name} request: ${(err as Error).message}` };
        }
      },
      responseSerialize: passthrough as never,
    };
  }
  return out as ServiceDefinition;
}

function isMalformed(v: unknown): v is Malformed {
  return typeof v === 'object' && v !== null && 'malformed' in v;
}

export interface ChainServiceHandlers {
  implementation: UntypedServiceImplementation;
  feed: () => TxFeed | undefined;
  streams(): number;
  stopAccepting(): void;
  close(): void;
}

/** What the two handlers share and the node steers: shutdown flags and the one TxFeed. */
interface ServiceLife {
  stopping: boolean; // refuse new SubmitTx (UNAVAILABLE)
  closed: boolean; // refuse new StreamTx too
  feed: TxFeed | undefined; // made on the first StreamTx
}

type Applied = Promise<{ applied: { continuumSequence: bigint } }>;

const invalid = (details: string): Status => ({ code: grpcStatus.INVALID_ARGUMENT, details });
const unavailable = (details: string): Status => ({ code: grpcStatus.UNAVAILABLE, details });

export function createChainHandlers(options: ChainServiceOptions): ChainServiceHandlers {
  const life: ServiceLife = { stopping: false, closed: false, feed: undefined };
  const submitLimit = new PeerRateLimiter(options.submitRate, 1000); // SubmitTx and SubmitTxBatch (a token per item)
  return {
    implementation: {
      SubmitTx: submitTxHandler(options, life, submitLimit),
      SubmitTxBatch: submitTxBatchHandler({
        backend: options.backend,
        stopping: () => life.stopping,
        limiter: submitLimit,
        status: (err) => submitStatus(err, options.logger),
        retryHint,
      }),
      StreamTx: streamTxHandler(options, life),
    } as UntypedServiceImplementation,
    feed: () => life.feed,
    streams: () => life.feed?.size ?? 0,
    stopAccepting() {
      life.stopping = true;
    },
    close() {
      life.stopping = true;
      life.closed = true;
      life.feed?.close();
    },
  };
}

/** The gateway call for a checked request (state checks, then the order); signature checked on the pool. */
function callFor(c: CheckedSubmitTx, gateway: OrderEntry, from: string): Applied {
  if (c.tx === 'order') return gateway.placeOrder(c.intent, c.signature, { from });
  if (c.tx === 'cancel') return gateway.cancelOrder(c.orderId, c.owner, c.marketId, c.signature, { from });
  if (c.tx === 'cancel_all') return gateway.cancelAll(c.data, c.signature, { from });
  return gateway.createMarket(c.baseMint, c.quoteMint, c.name, c.kind);
}

/** The same for a request an intake thread checked, signature included (the gateway processes' path). */
function callForSigned(c: SignedOff, gateway: OrderEntry, from: string): Applied {
  if (c.tx === 'order') return gateway.placeChecked(c.intent, c.payload, c.nonce, c.signatureValid, { from });
  if (c.tx === 'cancel')
    return gateway.cancelChecked(c.orderId, c.owner, c.marketId, c.payload, c.nonce, c.signatureValid, { from });
  if (c.tx === 'cancel_all') return gateway.cancelAllChecked(c.data, c.payload, c.nonce, c.signatureValid, { from });
  return gateway.createMarket(c.baseMint, c.quoteMint, c.name, c.kind);
}

/** A SubmitTx failure as its gRPC status: order book refusals by code (with a retry hint where retrying helps), the rest INTERNAL. */
export function submitStatus(err: unknown, logger: Logger): Status {
  if (err instanceof DexRefusal) {
    const code = grpcStatusOf(err);
    return code === grpcStatus.RESOURCE_EXHAUSTED || code === grpcStatus.UNAVAILABLE
      ? { code, details: `${err.code}: ${err.message}`, metadata: retryHint() }
      : { code, details: `${err.code}: ${err.message}` };
  }
  logger.error({ err }, 'SubmitTx failed');
  return { code: grpcStatus.INTERNAL, details: 'internal error in SubmitTx' };
}

/** SubmitTx: checked here, or on the intake threads and then taken up in arrival order; answered with its record as derived (Chain.derivedRecord). */
function submitTxHandler(options: ChainServiceOptions, life: ServiceLife, submitLimit: PeerRateLimiter) {
  const { logger } = options;

  /** SubmitTx's task on the intake threads: decoded, checked, signature verified there (workers/intake.worker.ts submitTxs). */
  const prepareSubmitTx = options.intake?.gathered<SignedOff>('submitTxs', SUBMIT_TX_PER_TASK);

  /** SubmitTx requests prepared on intake threads, taken up in arrival order. */
  const arrivals = new ArrivalQueue<{ signed: SignedOff; gateway: OrderEntry; from: string }, Applied>(
    ({ signed, gateway, from }) => callForSigned(signed, gateway, from),
  );

  const answer = (work: Applied, chain: Chain, callback: sendUnaryData<Buffer>): void => {
    work
      .then(async ({ applied }) => {
        const t = await chain.derivedRecord(applied.continuumSequence);
        if (!t) throw new DexRefusal('INTERNAL', 'the transaction was applied but its chain record is missing');
        callback(null, encodeSubmitTxResponse(t));
      })
      .catch((err: unknown) => callback(isIntakeRefusal(err) ? err.refused : submitStatus(err, logger)));
  };

  return (call: ServerUnaryCall<SubmitTxRequest | Malformed | Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    if (life.stopping) return callback(unavailable('node is shutting down'));
    const backend = options.backend();
    if (!backend) return callback(unavailable('the chain is starting; retry shortly'));
    if (!submitLimit.take(call.getPeer())) {
      return callback({
        code: grpcStatus.RESOURCE_EXHAUSTED,
        details: `rate limit: at most ${options.submitRate} SubmitTx per second per client address`,
        metadata: retryHint(),
      });
    }
    if (req instanceof Uint8Array) {
      // Intake threads: decoded, checked and signature-verified there; ordered here in arrival order.
      if (arrivals.waiting >= MAX_ARRIVALS_WAITING) {
        return callback({
          code: grpcStatus.RESOURCE_EXHAUSTED,
          details: `${MAX_ARRIVALS_WAITING} SubmitTx requests are already waiting for intake; retry later`,
          metadata: retryHint(),
        });
      }
      const from = peerAddress(call.getPeer());
      const prepared = prepareSubmitTx!(req).then((signed) => ({ signed, gateway: backend.gateway, from }));
      // The arrival line resolves with the gateway's promise, which the answer awaits.
      answer(
        arrivals.submit(prepared).then((work) => work),
        backend.chain,
        callback,
      );
      return;
    }
    const checked = checkSubmitTx(req);
    if (isIntakeRefusal(checked)) return callback(checked.refused);
    answer(callFor(checked, backend.gateway, peerAddress(call.getPeer())), backend.chain, callback);
  };
}

/** StreamTx: per-address rate and stream limits, then the stream itself (stream-tx.ts) on the shared TxFeed. */
function streamTxHandler(options: ChainServiceOptions, life: ServiceLife) {
  const { logger } = options;
  const streamLimit = new PeerRateLimiter(options.streamRate, 60_000);
  const maxStreams = options.maxStreams ?? MAX_TX_STREAMS;
  const maxPerPeer = options.maxStreamsPerPeer ?? MAX_TX_STREAMS_PER_PEER;
  const streamsByPeer = new Map<string, number>();

  return (call: ServerWritableStream<{ from_sequence: string } | Malformed, Buffer>) => {
    const req = call.request;
    if (isMalformed(req)) return call.emit('error', invalid(req.malformed));
    const backend = options.backend();
    if (!backend || life.closed)
      return call.emit(
        'error',
        unavailable(life.closed ? 'node is shutting down' : 'the chain is starting; retry shortly'),
      );
    let from: bigint;
    try {
      from = BigInt(req.from_sequence);
    } catch {
      return call.emit('error', invalid('from_sequence must be a uint64'));
    }
    const peer = peerAddress(call.getPeer());
    if (!streamLimit.take(peer)) {
      return call.emit('error', {
        code: grpcStatus.RESOURCE_EXHAUSTED,
        details: `rate limit: at most ${options.streamRate} StreamTx calls per minute per client address`,
      });
    }
    const feed = (life.feed ??= new TxFeed(backend.chain));
    if (feed.size >= maxStreams)
      return call.emit('error', {
        code: grpcStatus.RESOURCE_EXHAUSTED,
        details: `too many StreamTx calls open (at most ${maxStreams}); retry later`,
      });
    const mine = streamsByPeer.get(peer) ?? 0;
    if (mine >= maxPerPeer)
      return call.emit('error', {
        code: grpcStatus.RESOURCE_EXHAUSTED,
        details: `too many StreamTx calls from this address (at most ${maxPerPeer} at once)`,
      });
    streamsByPeer.set(peer, mine + 1);
    serveTxStream(call as ServerWritableStream<unknown, Buffer>, from, backend.chain, feed, options.streamQueue)
      .then(
        (outcome) => logger.debug({ outcome }, 'tx stream ended'),
        (err: unknown) => {
          logger.error({ err }, 'StreamTx failed');
          call.emit('error', { code: grpcStatus.INTERNAL, details: 'internal error in StreamTx' });
        },
      )
      .finally(() => {
        const n = (streamsByPeer.get(peer) ?? 1) - 1;
        if (n <= 0) streamsByPeer.delete(peer);
        else streamsByPeer.set(peer, n);
      });
  };
}
