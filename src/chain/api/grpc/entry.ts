/**
 * The gRPC order entry (`--grpc-entry-addr`, docs/chain.md "gRPC order entry"): ChainService's
 * SubmitTx alone, on a port of its own, served by each gateway process (the node process
 * binds the port; node:cluster shares it). Everything per call that needs no global order
 * runs here, in the gateway: HTTP/2 and gRPC framing, the strict request check, decoding,
 * the ed25519 check of the owner's signature. The checked order, cancel or mass cancel goes
 * to the node process as one compact frame (`send`, the gateway channel); the node orders
 * it, applies it and answers with the SubmitTxResponse it would give on its own gRPC port.
 * So the node's ordering thread never parses these calls, and a call refused for load
 * (this gateway's fair share of waiting requests per client address) is refused here.
 *
 * The HTTP/2 bounds are the node's gRPC port's (streams per connection, a connection whose
 * client cancels too many calls closed gracefully: docs/api.md "Overload and HTTP/2").
 * Answers and codes are those of SubmitTx on the node's gRPC port (docs/chain.md "gRPC"),
 * with one exception: market creation is not taken here (FAILED_PRECONDITION; it goes to
 * the node's gRPC port, where its checks live). The other ChainService methods answer
 * UNIMPLEMENTED here. This file knows nothing of the channel's frames: `send` is given.
 */
import {
  Server,
  ServerCredentials,
  status as grpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type StatusObject,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { DexRefusal, type DexRefusalCode } from '../../../dex/index.js';
import { isIntakeRefusal } from '../../../intake/index.js';
import {
  formatHostPort,
  guardSessions,
  HTTP2_SERVER_OPTIONS,
  peerAddress,
  type HostPort,
} from '../../../wire/index.js';
import type { Chain } from '../../core/index.js';
import { encodeSubmitTxResponse } from './encode.js';
import { chainDefinition, submitStatus } from './service.js';
import { checkSubmitTx, decodeSubmitTxRequest, signOff } from './submit-check.js';

/** What the entry hands to the node: the fields of one checked request. */
export interface EntryRequest {
  kind: 'order' | 'cancel' | 'cancel_all';
  signatureValid: boolean;
  nonce: bigint;
  from: string; // the client's IP address: the node's fair share
  payload: Uint8Array;
}

/** The node's answer: SubmitTxResponse bytes, or a refusal in the order book's codes. */
export type EntryReply = { response: Uint8Array } | { refused: { code: string; message: string; replay: boolean } };

export interface SubmitTxEntryOptions {
  send: (req: EntryRequest) => Promise<EntryReply>;
  /** A refusal to give at once, before any check, to a call from this address (its share is full). */
  refusal: (from: string) => DexRefusal | undefined;
  logger: Logger;
  /** SubmitTx request bytes at most (grpc-js refuses more with RESOURCE_EXHAUSTED). */
  maxReceiveMessageBytes: number;
}

export interface SubmitTxEntry {
  port: number;
  /** Refuse new calls (UNAVAILABLE) and let the calls taken be answered. */
  close(): Promise<void>;
}

export async function startSubmitTxEntry(addr: HostPort, options: SubmitTxEntryOptions): Promise<SubmitTxEntry> {
  const server = new Server({
    'grpc.max_receive_message_length': options.maxReceiveMessageBytes,
    'grpc.max_send_message_length': -1,
    'grpc.enable_channelz': 0,
    ...HTTP2_SERVER_OPTIONS,
  });
  let stopping = false;
  const full = chainDefinition(true);
  const definition: ServiceDefinition = { SubmitTx: full.SubmitTx! };
  server.addService(definition, {
    SubmitTx: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      if (stopping) return callback({ code: grpcStatus.UNAVAILABLE, details: 'this gateway is stopping; retry' });
      submitTx(call.request, peerAddress(call.getPeer()), options).then(
        (r) => callback(null, Buffer.from(r.buffer, r.byteOffset, r.byteLength)),
        (s: Partial<StatusObject>) => callback(s),
      );
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(formatHostPort(addr), ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  guardSessions(server, options.logger); // streams per connection, client cancels: as the node's gRPC port
  return {
    port,
    close: () => {
      stopping = true;
      return new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

/** One SubmitTx: checked and signed off here, ordered by the node; rejects with the call's status. */
async function submitTx(bytes: Buffer, from: string, options: SubmitTxEntryOptions): Promise<Uint8Array> {
  const full = options.refusal(from);
  if (full !== undefined) throw submitStatus(full, options.logger);
  const req = decodeSubmitTxRequest(bytes);
  if (isIntakeRefusal(req)) throw req.refused;
  const checked = checkSubmitTx(req);
  if (isIntakeRefusal(checked)) throw checked.refused;
  if (checked.tx === 'market') {
    throw {
      code: grpcStatus.FAILED_PRECONDITION,
      details: 'market creation is not taken on the order entry port; send it to the node gRPC port',
    };
  }
  const s = signOff(checked);
  let reply: EntryReply;
  try {
    reply = await options.send({
      kind: s.tx,
      signatureValid: s.signatureValid,
      nonce: s.nonce,
      from,
      payload: s.payload,
    });
  } catch (err) {
    throw submitStatus(err, options.logger);
  }
  if ('response' in reply) return reply.response;
  const { code, message, replay } = reply.refused;
  throw submitStatus(new DexRefusal(code as DexRefusalCode, message, replay), options.logger);
}

/**
 * The node process's half: the SubmitTxResponse of an applied request, from its record as
 * derived (the answer SubmitTx gives on the node's own gRPC port).
 */
export function submitTxAnswer(chain: Chain): (continuumSequence: bigint) => Promise<Uint8Array> {
  return async (continuumSequence) => {
    const t = await chain.derivedRecord(continuumSequence);
    if (!t) throw new DexRefusal('INTERNAL', 'the transaction was applied but its chain record is missing');
    return encodeSubmitTxResponse(t);
  };
}
