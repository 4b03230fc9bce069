/**
 * `svc tx send` and `svc tx get`: submit transactions over gRPC (from flags, or many from a
 * JSON file with SubmitBatch) and look one up by its 8-hex hash (`svc tx prove`: tx-prove.ts). A transaction's tx_id
 * defaults to a fresh `cli-<time>-<random>` so running the same command twice sends two
 * transactions instead of getting ALREADY_EXISTS.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nowMicros } from '../core/index.js';
import { fromHex } from '../sdk/index.js';
import { MAX_BATCH_TRANSACTIONS } from '../sequencer/interface.js';
import { group, type Subcommand } from './command.js';
import { describeBytes, isoMicros, transactionLookupJson } from './format.js';
import { GRPC_URL_OPTION, nodeClient, type NodeClient, type WireSubmitResponse, type WireTransaction } from './grpc.js';
import { readFileOrStdin } from './input.js';
import { prove } from './tx-prove.js';
import { CommandFailure, optional, u64Text, UsageError, type Values } from './options.js';

/** A fresh tx_id: unique per call without coordination. */
export function freshTxId(): string {
  return `cli-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

function hexBytes(text: string, name: string): Buffer {
  try {
    return Buffer.from(fromHex(text.trim().replace(/^0x/i, '')));
  } catch {
    throw new UsageError(
      `${name} must be hex (an even number of 0-9a-f), got '${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`,
    );
  }
}

/** A transaction from the flags of `svc tx send`. */
async function fromFlags(v: Values): Promise<WireTransaction> {
  const payloads = ['payload', 'payload-hex', 'payload-file'].filter((k) => optional(v, k) !== undefined);
  if (payloads.length > 1)
    throw new UsageError(
      `give one of --payload, --payload-hex, --payload-file (got ${payloads.map((p) => `--${p}`).join(' and ')})`,
    );
  const payload =
    optional(v, 'payload-hex') !== undefined
      ? hexBytes(optional(v, 'payload-hex')!, '--payload-hex')
      : optional(v, 'payload-file') !== undefined
        ? await readFile(optional(v, 'payload-file')!)
        : Buffer.from(optional(v, 'payload') ?? '', 'utf8');
  return {
    tx_id: optional(v, 'id') ?? freshTxId(),
    payload,
    signature: hexBytes(optional(v, 'signature-hex') ?? '', '--signature-hex'),
    public_key: hexBytes(optional(v, 'public-key-hex') ?? '', '--public-key-hex'),
    nonce: u64Text(optional(v, 'nonce') ?? '0', '--nonce'),
    timestamp: u64Text(optional(v, 'timestamp') ?? String(nowMicros()), '--timestamp'),
  };
}

const FILE_FIELDS = [
  'tx_id',
  'payload',
  'payload_hex',
  'payload_base64',
  'signature_hex',
  'public_key_hex',
  'nonce',
  'timestamp',
];

/** A transaction from one JSON object of a --file. */
export function fromJson(o: unknown, where: string): WireTransaction {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new UsageError(`${where}: expected a JSON object`);
  const r = o as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !FILE_FIELDS.includes(k));
  if (unknown.length)
    throw new UsageError(
      `${where}: unknown field ${unknown.map((k) => `'${k}'`).join(', ')} (known: ${FILE_FIELDS.join(', ')})`,
    );
  const str = (k: string): string | undefined => {
    if (r[k] === undefined) return undefined;
    if (typeof r[k] !== 'string') throw new UsageError(`${where}: ${k} must be a string`);
    return r[k];
  };
  const int = (k: string): string | undefined => {
    const x = r[k];
    if (x === undefined) return undefined;
    if (typeof x !== 'string' && typeof x !== 'number') throw new UsageError(`${where}: ${k} must be an integer`);
    return u64Text(String(x), `${where}: ${k}`);
  };
  const given = ['payload', 'payload_hex', 'payload_base64'].filter((k) => r[k] !== undefined);
  if (given.length > 1) throw new UsageError(`${where}: give one of payload, payload_hex, payload_base64`);
  const payload =
    str('payload_hex') !== undefined
      ? hexBytes(str('payload_hex')!, `${where}: payload_hex`)
      : str('payload_base64') !== undefined
        ? Buffer.from(str('payload_base64')!, 'base64')
        : Buffer.from(str('payload') ?? '', 'utf8');
  return {
    tx_id: str('tx_id') ?? freshTxId(),
    payload,
    signature: hexBytes(str('signature_hex') ?? '', `${where}: signature_hex`),
    public_key: hexBytes(str('public_key_hex') ?? '', `${where}: public_key_hex`),
    nonce: int('nonce') ?? '0',
    timestamp: int('timestamp') ?? String(nowMicros()),
  };
}

/** A --file: one JSON object, a JSON array of them, or JSON lines (one object per line). */
export function parseTransactionsFile(text: string, name: string): WireTransaction[] {
  const t = text.trim();
  if (t === '') throw new UsageError(`${name} is empty`);
  if (t.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(t);
    } catch (err) {
      throw new UsageError(`${name}: not valid JSON (${(err as Error).message})`);
    }
    return (list as unknown[]).map((o, i) => fromJson(o, `${name} item ${i}`));
  }
  const lines = t
    .split('\n')
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l !== '');
  return lines.map(([l, n]) => {
    let o: unknown;
    try {
      o = JSON.parse(l);
    } catch (err) {
      throw new UsageError(`${name} line ${n}: not valid JSON (${(err as Error).message})`);
    }
    return fromJson(o, `${name} line ${n}`);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll until `hash` is in a tick; returns its tick number. */
async function waitForTick(client: NodeClient, hash: string, txId: string, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.getTransaction(hash);
    if (r.found && r.transaction?.transaction.tx_id === txId) return Number(r.tick_number);
    if (Date.now() > until) throw new CommandFailure(`${txId} (${hash}) is not in a tick after ${timeoutMs} ms`);
    await sleep(25);
  }
}

const send: Subcommand = {
  spec: {
    name: 'tx send',
    summary: 'submit a transaction (or a file of them) and print its hash, sequence number and expected tick',
    usage: '[options]',
    description:
      'Sends over gRPC (SubmitTransaction; SubmitBatch for --file). Prints one line per transaction:\n' +
      'its tx_id, tx_hash (8 hex), sequence number and the tick it is expected in. With --wait it\n' +
      'also waits until the transaction is in a durable tick and prints that tick.\n' +
      '--file takes a JSON object, a JSON array or JSON lines, each object with any of:\n' +
      `${FILE_FIELDS.join(', ')} (payload is text; nonce and timestamp integers).`,
    options: [
      {
        name: 'payload',
        short: 'p',
        type: 'string',
        value: 'TEXT',
        help: 'payload as UTF-8 text',
        defaultHelp: 'empty',
      },
      { name: 'payload-hex', type: 'string', value: 'HEX', help: 'payload as hex bytes' },
      { name: 'payload-file', type: 'string', value: 'FILE', help: "payload: a file's raw bytes" },
      {
        name: 'id',
        type: 'string',
        value: 'TX_ID',
        help: 'tx_id (1..128 bytes of UTF-8)',
        defaultHelp: 'cli-<time>-<random>, new each time',
      },
      { name: 'nonce', type: 'string', value: 'N', help: 'u64 nonce (unique per public key)', defaultHelp: '0' },
      {
        name: 'timestamp',
        type: 'string',
        value: 'MICROS',
        help: 'client timestamp, microseconds since the epoch',
        defaultHelp: 'now',
      },
      { name: 'public-key-hex', type: 'string', value: 'HEX', help: 'public_key bytes', defaultHelp: 'empty' },
      { name: 'signature-hex', type: 'string', value: 'HEX', help: 'signature bytes', defaultHelp: 'empty' },
      {
        name: 'file',
        short: 'f',
        type: 'string',
        value: 'FILE',
        help: "transactions from a JSON file ('-' reads stdin) instead of the flags above",
      },
      {
        name: 'wait',
        short: 'w',
        type: 'boolean',
        help: 'wait until each transaction is in a tick, and print the tick',
      },
      { name: 'json', type: 'boolean', help: 'print one JSON object per transaction' },
      { name: 'quiet', short: 'q', type: 'boolean', help: 'print only the tx_hash (H=$(svc tx send ... -q))' },
      GRPC_URL_OPTION,
    ],
    examples: [
      'svc tx send --payload hello --wait',
      'H=$(svc tx send --payload hello --quiet)',
      'svc tx send --file txs.jsonl --json',
    ],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const file = optional(v, 'file');
    if (
      file !== undefined &&
      ['payload', 'payload-hex', 'payload-file', 'id', 'nonce', 'timestamp', 'public-key-hex', 'signature-hex'].some(
        (k) => optional(v, k) !== undefined,
      )
    ) {
      throw new UsageError('--file takes the transactions from the file: give no transaction flags with it');
    }
    const txs =
      file !== undefined
        ? parseTransactionsFile(await readFileOrStdin(file), file === '-' ? 'stdin' : file)
        : [await fromFlags(v)];
    const client = nodeClient(optional(v, 'grpc-url')!);
    let failed = 0;
    try {
      const results: Array<{ tx: WireTransaction; ok?: WireSubmitResponse; error?: string }> = [];
      if (file === undefined) {
        results.push({ tx: txs[0]!, ok: await client.submit(txs[0]!) });
      } else {
        for (let i = 0; i < txs.length; i += MAX_BATCH_TRANSACTIONS) {
          const chunk = txs.slice(i, i + MAX_BATCH_TRANSACTIONS);
          const { responses, itemErrors } = await client.submitBatch(chunk);
          chunk.forEach((tx, k) => {
            const e = itemErrors.find((x) => x.index === k);
            if (responses[k]?.sequence_number && responses[k]!.sequence_number !== '0')
              results.push({ tx, ok: responses[k]! });
            else results.push({ tx, error: e ? `${e.code}: ${e.message}` : 'refused' });
          });
        }
      }
      for (const r of results) {
        if (!r.ok) {
          failed++;
          if (v.json) console.log(JSON.stringify({ tx_id: r.tx.tx_id, error: r.error }));
          else console.log(`${r.tx.tx_id}  refused: ${r.error}`);
          continue;
        }
        const tick = v.wait ? await waitForTick(client, r.ok.tx_hash, r.tx.tx_id, 30_000) : undefined;
        const out = {
          tx_id: r.tx.tx_id,
          tx_hash: r.ok.tx_hash,
          sequence_number: Number(r.ok.sequence_number),
          expected_tick: Number(r.ok.expected_tick),
          ...(tick !== undefined ? { tick } : {}),
        };
        if (v.json) console.log(JSON.stringify(out));
        else if (v.quiet) console.log(out.tx_hash);
        else
          console.log(
            `${out.tx_id}  tx_hash ${out.tx_hash}  sequence ${out.sequence_number}  expected tick ${out.expected_tick}${tick !== undefined ? `  in tick ${tick}` : ''}`,
          );
      }
    } finally {
      client.close();
    }
    if (failed)
      throw new CommandFailure(`${failed} of ${txs.length} transaction${txs.length === 1 ? '' : 's'} refused`);
    return 0;
  },
};

const get: Subcommand = {
  spec: {
    name: 'tx get',
    summary: 'look up a transaction by its 8-hex tx_hash: its tick, sequence number and fields',
    usage: '[options] TX_HASH',
    description:
      'Asks the node over gRPC (GetTransaction). When several transactions share the hash, the earliest is shown. Exits 1 when none is found.',
    options: [{ name: 'json', type: 'boolean', help: 'print the answer as JSON' }, GRPC_URL_OPTION],
    examples: ['svc tx get 1a2b3c4d'],
  },
  async run(v, positionals) {
    if (positionals.length !== 1) throw new UsageError('give one TX_HASH (8 hex characters)');
    const hash = positionals[0]!;
    const client = nodeClient(optional(v, 'grpc-url')!);
    try {
      const r = await client.getTransaction(hash);
      if (!r.found || !r.transaction)
        throw new CommandFailure(`no transaction with hash ${hash} in a tick on ${client.target} (yet)`);
      if (v.json) {
        console.log(transactionLookupJson({ tick_number: r.tick_number, transaction: r.transaction }));
        return 0;
      }
      const o = r.transaction;
      const t = o.transaction;
      console.log(
        [
          `tx ${o.tx_hash}: in tick ${r.tick_number}, sequence ${o.sequence_number}`,
          `  tx_id       ${t.tx_id}`,
          `  payload     ${describeBytes(t.payload)}`,
          `  nonce       ${t.nonce}`,
          `  timestamp   ${isoMicros(t.timestamp)} (client)`,
          `  ingested    ${isoMicros(o.ingestion_timestamp)}`,
          `  public_key  ${t.public_key.length ? Buffer.from(t.public_key).toString('hex') : '(empty)'}`,
          `  signature   ${t.signature.length ? Buffer.from(t.signature).toString('hex') : '(empty)'}`,
        ].join('\n'),
      );
      return 0;
    } finally {
      client.close();
    }
  },
};

export default group(
  'tx',
  'send transactions to the sequencer, look one up, or prove it is in a tick (svc tx send --payload hello)',
  [send, get, prove],
);
