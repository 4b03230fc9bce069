/**
 * The gRPC order entry in a gateway process (`--grpc-entry-addr`): the chain's SubmitTx
 * entry (its gRPC face, which checks and signs off each call) over this process's channel
 * to the node: each checked request goes as one frame with the gRPC answer bit, and the
 * node answers with SubmitTxResponse bytes or a refusal (frames.ts). The channel's fair
 * share of waiting requests per client address holds here as for POST /orders.
 */
import type { Logger } from 'pino';
import { DexRefusal } from '../../index.js';
import {
  startSubmitTxEntry,
  type EntryReply,
  type EntryRequest,
  type SubmitTxEntry,
} from '../../../chain/api/index.js';
import type { SequencerChannel } from './channel.js';
import {
  KIND_CANCEL,
  KIND_CANCEL_ALL,
  KIND_ORDER,
  REPLY_SUBMIT_TX,
  type ChannelReply,
  type ChannelRequest,
} from './frames.js';

/** A SubmitTx request is under 1 KiB; a request must fit one channel frame. */
const MAX_REQUEST_BYTES = 64 * 1024;

const KINDS = { order: KIND_ORDER, cancel: KIND_CANCEL, cancel_all: KIND_CANCEL_ALL } as const;

export function startGrpcEntry(
  at: { host: string; port: number },
  channel: SequencerChannel,
  logger: Logger,
): Promise<SubmitTxEntry> {
  return startSubmitTxEntry(at, {
    send: (r) => channel.send(frameOf(r)).then(entryReply, refusedReply),
    refusal: (from) => channel.refusal(from),
    logger,
    maxReceiveMessageBytes: MAX_REQUEST_BYTES,
  });
}

function frameOf(r: EntryRequest): Omit<ChannelRequest, 'id'> {
  return {
    kind: KINDS[r.kind],
    signatureValid: r.signatureValid,
    nonce: r.nonce,
    from: r.from,
    payload: r.payload,
    grpc: true,
  };
}

function entryReply(reply: ChannelReply): EntryReply {
  if (reply.type === REPLY_SUBMIT_TX) return { response: reply.response };
  if (reply.type === 0) return { refused: { code: reply.code, message: reply.message, replay: reply.replay === true } };
  return {
    refused: { code: 'INTERNAL', message: 'the node answered a gRPC entry request in the wrong form', replay: false },
  };
}

/** The channel's own refusals (this gateway's share is full, the channel closed). */
function refusedReply(err: unknown): EntryReply {
  if (err instanceof DexRefusal) return { refused: { code: err.code, message: err.message, replay: err.replay } };
  throw err;
}
