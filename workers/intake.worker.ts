/**
 * Piscina task module for intake (issue 8 point 2, docs/sequencer.md "Intake"): a gRPC
 * SubmitBatch request, as the bytes that came off the wire, decoded and prepared here
 * (protobuf, validation, Borsh, SHA-256, stored body, replay keys and their fingerprints:
 * src/sequencer/prepare.ts), so the node's main thread only orders.
 *
 * Contract: `submitBatch(bytes)` -> a PreparedBatch (its two buffers moved, not copied),
 * or `{ malformed }` naming why the request is refused as a whole (INVALID_ARGUMENT);
 * `submitTx(bytes)` (ChainService) -> the checked order, cancel or market with its
 * signature verdict, payload and nonce, or `{ refused: { code, details } }`;
 * `submitTxs(list)` the same for each of several requests.
 * No state between tasks.
 */
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { decodeSubmitBatchRequest, isMalformed } from '../src/sequencer/api/grpc/requests.js';
import { MAX_BATCH_TRANSACTIONS } from '../src/sequencer/limits.js';
import { prepareTransactions, type PreparedBatch } from '../src/sequencer/prepare.js';
import { checkSubmitTx, decodeSubmitTxRequest, signOff, type SignedOff } from '../src/chain/api/grpc/submit-check.js';
import { isIntakeRefusal, type IntakeRefusal } from '../src/intake/index.js';
import { takeThreadRole } from '../src/pool/thread-role.js';

takeThreadRole('intake');

export type IntakeAnswer = PreparedBatch | { malformed: string };

/** Several SubmitTx requests at once (one task for those that arrived together). */
export function submitTxs(list: Uint8Array[]): Array<SignedOff | IntakeRefusal> {
  return list.map(submitTx);
}

/** A ChainService SubmitTx request: decoded, checked, signature verified, payload built; or its refusal. */
export function submitTx(bytes: Uint8Array): SignedOff | IntakeRefusal {
  const req = decodeSubmitTxRequest(bytes);
  if (isIntakeRefusal(req)) return req;
  const checked = checkSubmitTx(req);
  return isIntakeRefusal(checked) ? checked : signOff(checked);
}

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
