/**
 * The eight handlers of svc.sequencer.v1.SequencerService over a Sequencer, with the
 * service definition they need: hand-written strict decoders (requests.ts) for every request
 * and hand-written encoders (encode.ts) for every response; proto-loader only supplies the
 * method table (paths, streaming flags).
 * Status mapping: malformed or out-of-range -> INVALID_ARGUMENT; SubmitError codes map
 * to the gRPC statuses of the same names; unknown hash or tick -> found=false with OK (a
 * proof request also for a pending or ambiguous hash: docs/proofs.md).
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
import { SubmitError, type Sequencer } from '../../index.js';
import type { SubmitResult, Transaction } from '../../../core/index.js';
import { earliest } from '../convert.js';
import { DEFAULT_TICK_LIMIT, MAX_BATCH_TRANSACTIONS, MAX_TICK_LIMIT, TX_SAMPLE_SIZE } from '../limits.js';
import { checkTickNumber, parseProofHash, parseTxHash } from '../params.js';
import { lookupTransactionProof } from '../tx-proof.js';
import { FOLLOWER_METADATA, sequencerServiceDefinition } from '../client/index.js';
import type { TickFeed } from './tick-feed.js';
import type { IntakeThreads } from './intake.js';
import type { TickStreams } from './tick-streams.js';
import {
  decodeGetChainStateRequest,
  decodeGetStatusRequest,
  decodeGetTickRequest,
  decodeGetTransactionProofRequest,
  decodeGetTransactionRequest,
  decodeStreamTicksRequest,
  decodeSubmitBatchRequest,
  decodeSubmitTransactionRequest,
  isMalformed,
  type Malformed,
} from './requests.js';
import {
  encodeGetChainStateResponse,
  encodeGetStatusResponse,
  encodeGetTickResponse,
  encodeGetTransactionProofResponse,
  encodeGetTransactionResponse,
  encodeSubmitBatchResponse,
  encodeSubmitTransactionResponse,
  encodeTick,
} from './encode.js';
import { shortHash } from '../../../core/index.js';
import { peerAddress } from '../../../wire/index.js';

type Status = Partial<ServiceError> & { code: grpcStatus; details: string };

const SUBMIT_CODES: Record<SubmitError['code'], grpcStatus> = {
  INVALID_ARGUMENT: grpcStatus.INVALID_ARGUMENT,
  RESOURCE_EXHAUSTED: grpcStatus.RESOURCE_EXHAUSTED,
  ALREADY_EXISTS: grpcStatus.ALREADY_EXISTS,
  UNAVAILABLE: grpcStatus.UNAVAILABLE,
};

const passthrough = (value: Buffer): Buffer => value;

/** Every method's request decoder (never throws: malformed input is a `Malformed` value). */
const REQUEST_DECODERS: Record<string, (buf: Buffer) => object> = {
  SubmitTransaction: decodeSubmitTransactionRequest,
  SubmitBatch: (buf) => decodeSubmitBatchRequest(buf, MAX_BATCH_TRANSACTIONS),
  GetStatus: decodeGetStatusRequest,
  StreamTicks: decodeStreamTicksRequest,
  GetTransaction: decodeGetTransactionRequest,
  GetTick: decodeGetTickRequest,
  GetChainState: decodeGetChainStateRequest,
  GetTransactionProof: decodeGetTransactionProofRequest,
};

/**
 * The service definition with this module's codecs in place of proto-loader's. With
 * `rawSubmitBatch` SubmitBatch requests stay bytes: the intake threads decode them.
 */
export function serviceDefinition(rawSubmitBatch = false): ServiceDefinition {
  const base = sequencerServiceDefinition();
  const out: Record<string, MethodDefinition<object, object>> = {};
  for (const [name, def] of Object.entries(base) as Array<[string, MethodDefinition<object, object>]>) {
    const decode = rawSubmitBatch && name === 'SubmitBatch' ? passthrough : REQUEST_DECODERS[name];
    if (!decode) throw new Error(`no request decoder for ${name}`);
    out[name] = { ...def, requestDeserialize: decode as never, responseSerialize: passthrough as never };
  }
  return out as ServiceDefinition;
}

export interface ServiceState {
  /** Refuse new submissions with UNAVAILABLE (graceful shutdown). */
  stopping: boolean;
  /** Submissions in flight (accepted by a handler, not yet answered). */
  inFlight: number;
}

export interface ServiceHandlers {
  implementation: UntypedServiceImplementation;
  state: ServiceState;
}

/** What every handler builder shares: the node's parts, the service state and the status helpers. */
interface HandlerContext {
  sequencer: Sequencer;
  feed: TickFeed;
  streams: TickStreams;
  logger: Logger;
  intake?: IntakeThreads;
  onSubmitBatch?: (intake: 'thread' | 'main') => void;
  state: ServiceState;
  /** Logs `err` and answers INTERNAL without its details. */
  internal(err: unknown, what: string): Status;
  /** A SubmitError as its gRPC status, anything else as internal(). */
  toStatus(err: unknown, what: string): Status;
  /** Counts a submission in flight while `work` runs. */
  track<T>(work: () => Promise<T>): Promise<T>;
}

const invalid = (details: string): Status => ({ code: grpcStatus.INVALID_ARGUMENT, details });
const unavailable: Status = { code: grpcStatus.UNAVAILABLE, details: 'node is shutting down' };

export function createHandlers(
  sequencer: Sequencer,
  feed: TickFeed,
  streams: TickStreams,
  logger: Logger,
  intake?: IntakeThreads,
  onSubmitBatch?: (intake: 'thread' | 'main') => void,
): ServiceHandlers {
  const state: ServiceState = { stopping: false, inFlight: 0 };
  const internal = (err: unknown, what: string): Status => {
    logger.error({ err }, `${what} failed`);
    return { code: grpcStatus.INTERNAL, details: `internal error in ${what}` };
  };
  const ctx: HandlerContext = {
    sequencer,
    feed,
    streams,
    logger,
    ...(intake ? { intake } : {}),
    ...(onSubmitBatch ? { onSubmitBatch } : {}),
    state,
    internal,
    toStatus: (err, what) =>
      err instanceof SubmitError ? { code: SUBMIT_CODES[err.code], details: err.message } : internal(err, what),
    track: async (work) => {
      state.inFlight++;
      try {
        return await work();
      } finally {
        state.inFlight--;
      }
    },
  };
  return {
    state,
    implementation: {
      ...submitHandlers(ctx),
      ...queryHandlers(ctx),
      StreamTicks: streamTicksHandler(ctx),
    } as UntypedServiceImplementation,
  };
}

/** A batch's per-item results as the response, failures in the trailer (docs/api.md). */
function answerBatch(results: Array<SubmitResult | SubmitError>, callback: sendUnaryData<Buffer>): void {
  const ok: Array<SubmitResult | undefined> = [];
  const failures: Array<{ index: number; code: string; message: string }> = [];
  let exhausted = false;
  results.forEach((r, index) => {
    if (r instanceof SubmitError) {
      ok.push(undefined);
      exhausted ||= r.code === 'RESOURCE_EXHAUSTED';
      if (failures.length < 100) failures.push({ index, code: r.code, message: r.message });
    } else if (r instanceof Error) {
      ok.push(undefined);
      if (failures.length < 100) failures.push({ index, code: 'INTERNAL', message: 'internal error' });
    } else ok.push(r);
  });
  const failedCount = ok.filter((r) => r === undefined).length;
  if (failedCount === results.length && exhausted) {
    return callback({
      code: grpcStatus.RESOURCE_EXHAUSTED,
      details: 'transaction queue is full: nothing from this batch was accepted',
    });
  }
  let trailer: Metadata | undefined;
  if (failedCount > 0) {
    trailer = new Metadata();
    trailer.set('svc-failed-items', String(failedCount));
    trailer.set('svc-item-errors', JSON.stringify(failures));
  }
  callback(null, encodeSubmitBatchResponse(ok), trailer);
}

/** SubmitTransaction and SubmitBatch (decoded here, or prepared on the intake threads). */
function submitHandlers(ctx: HandlerContext) {
  const { sequencer, state, intake, onSubmitBatch, internal, toStatus, track } = ctx;

  const SubmitTransaction = (
    call: ServerUnaryCall<{ transaction?: Transaction } | Malformed, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    if (!req.transaction) return callback(invalid('transaction is required'));
    if (state.stopping) return callback(unavailable);
    const tx = req.transaction;
    track(() => sequencer.submit(tx)).then(
      (r) => callback(null, encodeSubmitTransactionResponse(r)),
      (err: unknown) => callback(toStatus(err, 'SubmitTransaction')),
    );
  };

  const SubmitBatch = (
    call: ServerUnaryCall<{ transactions: Transaction[] } | Malformed | Buffer, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (req instanceof Uint8Array) {
      if (state.stopping) return callback(unavailable);
      // Intake threads: decoded and prepared off the main thread, admitted in arrival order.
      if (!intake || !sequencer.submitPrepared)
        return callback(internal(new Error('raw SubmitBatch without intake threads'), 'SubmitBatch'));
      const submitPrepared = sequencer.submitPrepared.bind(sequencer);
      onSubmitBatch?.('thread');
      track(() => submitPrepared(intake.prepareSubmitBatch(req))).then(
        (results) => answerBatch(results, callback),
        (err: unknown) => callback(toStatus(err, 'SubmitBatch')),
      );
      return;
    }
    if (isMalformed(req)) return callback(invalid(req.malformed));
    if (req.transactions.length === 0)
      return callback(invalid('transactions is empty: a batch needs 1..10000 transactions'));
    if (state.stopping) return callback(unavailable);
    onSubmitBatch?.('main');
    track(() => sequencer.submitBatch(req.transactions)).then(
      (results) => answerBatch(results, callback),
      (err: unknown) => callback(toStatus(err, 'SubmitBatch')),
    );
  };

  return { SubmitTransaction, SubmitBatch };
}

/** GetChainState's answer: the latest `limit` ticks (encoded once, from the feed when there) and a sample of their hashes. */
async function chainState(sequencer: Sequencer, feed: TickFeed, limit: number): Promise<Buffer> {
  const s = sequencer.status();
  const summaries = await sequencer.recentTicks(limit, 0);
  const recentTicks: Buffer[] = [];
  const sample: Array<[string, number]> = [];
  for (const summary of summaries) {
    const tick = await sequencer.getTick(summary.tickNumber);
    if (!tick) continue;
    recentTicks.push(feed.get(tick.tickNumber) ?? encodeTick(tick));
    for (const o of tick.transactions) {
      if (sample.length >= TX_SAMPLE_SIZE) break;
      sample.push([shortHash(o.txHash), tick.tickNumber]);
    }
  }
  return encodeGetChainStateResponse({
    chainHeight: s.currentTick,
    totalTransactions: s.totalTransactions,
    recentTicks,
    txToTickSample: sample,
  });
}

/** GetStatus, GetTransaction, GetTick, GetChainState and GetTransactionProof. */
function queryHandlers(ctx: HandlerContext) {
  const { sequencer, feed, internal } = ctx;

  const GetStatus = (call: ServerUnaryCall<object | Malformed, Buffer>, callback: sendUnaryData<Buffer>) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    callback(null, encodeGetStatusResponse(sequencer.status()));
  };

  const GetTransaction = (
    call: ServerUnaryCall<{ txHash: string } | Malformed, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    const hash = parseTxHash(req.txHash);
    if (!hash.ok) return callback(invalid(hash.error));
    sequencer.findTransactions(hash.value).then(
      (matches) => callback(null, encodeGetTransactionResponse(earliest(matches))),
      (err: unknown) => callback(internal(err, 'GetTransaction')),
    );
  };

  const GetTick = (
    call: ServerUnaryCall<{ tickNumber: bigint } | Malformed, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    const n = checkTickNumber(req.tickNumber.toString(), 'tick_number');
    if (!n.ok) return callback(invalid(n.error));
    const cached = feed.get(n.value);
    if (cached) return callback(null, encodeGetTickResponse(cached));
    sequencer.getTick(n.value).then(
      (tick) => callback(null, encodeGetTickResponse(tick ? encodeTick(tick) : undefined)),
      (err: unknown) => callback(internal(err, 'GetTick')),
    );
  };

  const GetChainState = (
    call: ServerUnaryCall<{ tickLimit: number } | Malformed, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    const limit = req.tickLimit === 0 ? DEFAULT_TICK_LIMIT : req.tickLimit;
    if (limit > MAX_TICK_LIMIT) return callback(invalid(`tick_limit must be at most ${MAX_TICK_LIMIT}, got ${limit}`));
    chainState(sequencer, feed, limit).then(
      (buf) => callback(null, buf),
      (err: unknown) => callback(internal(err, 'GetChainState')),
    );
  };

  const GetTransactionProof = (
    call: ServerUnaryCall<{ txHash: string } | Malformed, Buffer>,
    callback: sendUnaryData<Buffer>,
  ) => {
    const req = call.request;
    if (isMalformed(req)) return callback(invalid(req.malformed));
    const hash = parseProofHash(req.txHash);
    if (!hash.ok) return callback(invalid(hash.error));
    lookupTransactionProof(sequencer, hash.value).then(
      (r) => {
        if (r.kind === 'found') {
          const encodedTick = feed.get(r.tick.tickNumber) ?? encodeTick(r.tick);
          return callback(null, encodeGetTransactionProofResponse({ found: true, proof: r.proof, encodedTick }));
        }
        const candidates = r.kind === 'ambiguous' ? r.candidates : [];
        callback(null, encodeGetTransactionProofResponse({ found: false, pending: r.kind === 'pending', candidates }));
      },
      (err: unknown) => callback(internal(err, 'GetTransactionProof')),
    );
  };

  return { GetStatus, GetTransaction, GetTick, GetChainState, GetTransactionProof };
}

/** StreamTicks: the request checked here, the stream run by the registry (tick-streams.ts). */
function streamTicksHandler(ctx: HandlerContext) {
  const { streams, logger, internal } = ctx;
  return (call: ServerWritableStream<{ startTick: bigint } | Malformed, Buffer>) => {
    const req = call.request;
    if (isMalformed(req)) return call.emit('error', invalid(req.malformed));
    let start = 0;
    if (req.startTick !== 0n) {
      const n = checkTickNumber(req.startTick.toString(), 'start_tick');
      if (!n.ok) return call.emit('error', invalid(n.error));
      start = n.value;
    }
    const follower = call.metadata.get(FOLLOWER_METADATA).length > 0 && isLoopback(peerAddress(call.getPeer()));
    const admitted = streams.open(call as ServerWritableStream<unknown, Buffer>, start, { paced: !follower });
    if (!admitted.ok) return call.emit('error', { code: grpcStatus.RESOURCE_EXHAUSTED, details: admitted.reason });
    admitted.outcome.then(
      (outcome) => logger.debug({ outcome }, 'tick stream ended'),
      (err: unknown) => call.emit('error', internal(err, 'StreamTicks')),
    );
  };
}

/**
 * Whether a peer address is this machine's (127.0.0.0/8, ::1, IPv4-mapped loopback): only
 * there is a full node's `svc-follower` metadata taken at its word, since anyone can send it.
 */
function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
