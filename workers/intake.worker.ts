/**
 * Piscina task module for intake (issue 8 point 2, docs/sequencer.md "Intake"): a gRPC
 * SubmitBatch request, as the bytes that came off the wire, decoded and prepared here
 * (protobuf, validation, Borsh, SHA-256, stored body, archive prefix, replay key:
 * src/sequencer/prepare.ts), so the node's main thread only orders.
 *
 * Contract: `submitBatch(bytes)` -> a PreparedBatch (its two buffers moved, not copied),
 * or `{ malformed }` naming why the request is refused as a whole (INVALID_ARGUMENT).
 * No state between tasks.
 */
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { decodeSubmitBatchRequest, isMalformed } from '../src/rpc/grpc/requests.js';
import { MAX_BATCH_TRANSACTIONS } from '../src/sequencer/limits.js';
import { prepareTransactions, type PreparedBatch } from '../src/sequencer/prepare.js';

export type IntakeAnswer = PreparedBatch | { malformed: string };

export function submitBatch(bytes: Uint8Array): IntakeAnswer {
  const req = decodeSubmitBatchRequest(bytes, MAX_BATCH_TRANSACTIONS);
  if (isMalformed(req)) return { malformed: req.malformed };
  if (req.transactions.length === 0) return { malformed: 'transactions is empty: a batch needs 1..10000 transactions' };
  const batch = prepareTransactions(req.transactions);
  return Piscina.move({
    [transferableSymbol]: [batch.bytes.buffer, batch.layout.buffer],
    [valueSymbol]: batch,
  }) as unknown as IntakeAnswer;
}
