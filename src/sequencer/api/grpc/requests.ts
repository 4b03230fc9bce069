/**
 * Decoders of every svc.sequencer.v1 request message (proto/svc/sequencer/v1/sequencer.proto),
 * written on the strict ProtoReader (src/wire proto-reader.ts). They never throw: malformed bytes come
 * back as `{ malformed: reason }` so the handler answers INVALID_ARGUMENT (grpc-js would turn a
 * throwing deserializer into INTERNAL). Submissions decode straight into domain Transactions
 * (u64 as bigint, bytes as views into the received message, no intermediate objects).
 *
 *   SubmitTransactionRequest { Transaction transaction = 1; }
 *   SubmitBatchRequest       { repeated Transaction transactions = 1; }   (at most maxItems)
 *   GetStatusRequest         { }
 *   StreamTicksRequest       { uint64 start_tick = 1; }
 *   GetTransactionRequest    { string tx_hash = 1; }
 *   GetTickRequest           { uint64 tick_number = 1; }
 *   GetChainStateRequest     { uint32 tick_limit = 1; }
 *   GetTransactionProofRequest { string tx_hash = 1; }               (8 or 64 hex: checked after)
 *
 * A scalar field that occurs more than once keeps its last value (protobuf's rule).
 */
import type { Transaction } from '../../../core/index.js';
import { LEN, ProtoReader, VARINT, WireError, expectWireType } from '../../../wire/index.js';

export interface Malformed {
  malformed: string;
}

export function isMalformed(value: unknown): value is Malformed {
  return typeof value === 'object' && value !== null && 'malformed' in value;
}

const EMPTY = new Uint8Array(0);

/** Run `decode`, turning a WireError into `{ malformed }` named after the message. */
function guarded<T>(message: string, decode: () => T): T | Malformed {
  try {
    return decode();
  } catch (err) {
    if (err instanceof WireError) return { malformed: `malformed ${message}: ${err.message}` };
    throw err;
  }
}

function readTransaction(r: ProtoReader, end: number): Transaction {
  const tx: Transaction = { txId: '', payload: EMPTY, signature: EMPTY, publicKey: EMPTY, nonce: 0n, timestamp: 0n };
  const sub = new ProtoReader(r.buf, r.pos, end);
  while (!sub.done) {
    const [field, wt] = sub.tag();
    switch (field) {
      case 1:
        expectWireType('tx_id', wt, LEN);
        tx.txId = sub.string('tx_id');
        break;
      case 2:
        expectWireType('payload', wt, LEN);
        tx.payload = sub.bytes();
        break;
      case 3:
        expectWireType('signature', wt, LEN);
        tx.signature = sub.bytes();
        break;
      case 4:
        expectWireType('public_key', wt, LEN);
        tx.publicKey = sub.bytes();
        break;
      case 5:
        expectWireType('nonce', wt, VARINT);
        tx.nonce = sub.varint64();
        break;
      case 6:
        expectWireType('timestamp', wt, VARINT);
        tx.timestamp = sub.varint64();
        break;
      default:
        sub.skip(wt);
    }
  }
  r.pos = end;
  return tx;
}

/** SubmitTransactionRequest: the transaction, or undefined when the field is absent. */
export function decodeSubmitTransactionRequest(buf: Uint8Array): { transaction?: Transaction } | Malformed {
  return guarded('SubmitTransactionRequest', () => {
    const r = new ProtoReader(buf);
    let transaction: Transaction | undefined;
    while (!r.done) {
      const [field, wt] = r.tag();
      if (field === 1) {
        expectWireType('transaction', wt, LEN);
        transaction = readTransaction(r, r.embedded());
      } else r.skip(wt);
    }
    return transaction ? { transaction } : {};
  });
}

/** SubmitBatchRequest: the transactions in order; more than maxItems is refused while decoding. */
export function decodeSubmitBatchRequest(
  buf: Uint8Array,
  maxItems: number,
): { transactions: Transaction[] } | Malformed {
  return guarded('SubmitBatchRequest', () => {
    const r = new ProtoReader(buf);
    const transactions: Transaction[] = [];
    while (!r.done) {
      const [field, wt] = r.tag();
      if (field === 1) {
        expectWireType('transactions', wt, LEN);
        if (transactions.length >= maxItems) return { malformed: `batch holds more than ${maxItems} transactions` };
        transactions.push(readTransaction(r, r.embedded()));
      } else r.skip(wt);
    }
    return { transactions };
  });
}

/** A message with at most one scalar field (number 1) of the given wire type; `undefined` when absent. */
function singleField<T>(
  message: string,
  buf: Uint8Array,
  name: string,
  wireType: number,
  read: (r: ProtoReader) => T,
): { value?: T } | Malformed {
  return guarded(message, () => {
    const r = new ProtoReader(buf);
    let value: T | undefined;
    while (!r.done) {
      const [field, wt] = r.tag();
      if (field === 1) {
        expectWireType(name, wt, wireType);
        value = read(r);
      } else r.skip(wt);
    }
    return value === undefined ? {} : { value };
  });
}

/** GetStatusRequest: no fields; only valid encodings of unknown ones are allowed. */
export function decodeGetStatusRequest(buf: Uint8Array): Record<string, never> | Malformed {
  return guarded('GetStatusRequest', () => {
    const r = new ProtoReader(buf);
    while (!r.done) r.skip(r.tag()[1]);
    return {};
  });
}

export function decodeStreamTicksRequest(buf: Uint8Array): { startTick: bigint } | Malformed {
  const d = singleField('StreamTicksRequest', buf, 'start_tick', VARINT, (r) => r.varint64());
  return isMalformed(d) ? d : { startTick: d.value ?? 0n };
}

export function decodeGetTickRequest(buf: Uint8Array): { tickNumber: bigint } | Malformed {
  const d = singleField('GetTickRequest', buf, 'tick_number', VARINT, (r) => r.varint64());
  return isMalformed(d) ? d : { tickNumber: d.value ?? 0n };
}

export function decodeGetTransactionRequest(buf: Uint8Array): { txHash: string } | Malformed {
  const d = singleField('GetTransactionRequest', buf, 'tx_hash', LEN, (r) => r.string('tx_hash'));
  return isMalformed(d) ? d : { txHash: d.value ?? '' };
}

export function decodeGetChainStateRequest(buf: Uint8Array): { tickLimit: number } | Malformed {
  const d = singleField('GetChainStateRequest', buf, 'tick_limit', VARINT, (r) => {
    const v = r.varint64();
    if (v > 0xffffffffn) throw new WireError(`tick_limit ${v} does not fit its uint32`);
    return Number(v);
  });
  return isMalformed(d) ? d : { tickLimit: d.value ?? 0 };
}

export function decodeGetTransactionProofRequest(buf: Uint8Array): { txHash: string } | Malformed {
  const d = singleField('GetTransactionProofRequest', buf, 'tx_hash', LEN, (r) => r.string('tx_hash'));
  return isMalformed(d) ? d : { txHash: d.value ?? '' };
}
