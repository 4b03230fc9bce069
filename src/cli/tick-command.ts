/**
 * `svc tick get N` (one tick, for people or as JSON) and `svc ticks watch` (a line per tick
 * as the node makes them, from StreamTicks). Ticks come over gRPC, with their transactions.
 */
import { status, type ServiceError } from '@grpc/grpc-js';
import { group, type Subcommand } from './command.js';
import { describeBytes, isoMicros, shortHex, tickJson, tickLine } from './format.js';
import { explain, GRPC_URL_OPTION, nodeClient, type WireTick } from './grpc.js';
import { CommandFailure, optional, UsageError, wholeNumber } from './options.js';

const MAX_TICK = Number.MAX_SAFE_INTEGER;

/** A tick for people: header, VDF fields shortened, then one line per transaction. */
export function describeTick(t: WireTick): string {
  const lines = [
    `tick ${t.tick_number}`,
    `  time          ${isoMicros(t.timestamp)}`,
    `  transactions  ${t.transactions.length}`,
    `  iterations    ${t.vdf_proof.iterations}`,
    `  batch hash    ${t.transaction_batch_hash}`,
    `  previous      ${shortHex(t.previous_output, 16)}  (output of tick ${Number(t.tick_number) - 1}${t.tick_number === '1' ? ', genesis' : ''})`,
    `  vdf input     ${shortHex(t.vdf_proof.input, 16)}`,
    `  vdf output    ${shortHex(t.vdf_proof.output, 16)}`,
    `  vdf proof     ${shortHex(t.vdf_proof.proof, 16)}`,
  ];
  for (const o of t.transactions) {
    lines.push(
      `  ${o.tx_hash}  sequence ${o.sequence_number}  ${o.transaction.tx_id}  ${describeBytes(o.transaction.payload)}`,
    );
  }
  return lines.join('\n');
}

const get: Subcommand = {
  spec: {
    name: 'tick get',
    summary: 'show one tick: time, transactions, VDF proof fields',
    usage: '[options] N',
    description:
      'Asks the node over gRPC (GetTick), from memory or disk alike. Exits 1 when the tick does not exist yet. --json prints the REST tick object of docs/api.md plus its transactions.',
    options: [{ name: 'json', type: 'boolean', help: 'print the tick as one JSON object' }, GRPC_URL_OPTION],
    examples: ['svc tick get 1', 'svc tick get 42 --json'],
  },
  async run(v, positionals) {
    if (positionals.length !== 1) throw new UsageError('give one tick number N');
    const n = wholeNumber(positionals[0]!, 'N', 1, MAX_TICK);
    const client = nodeClient(optional(v, 'grpc-url')!);
    try {
      const tick = await client.getTick(n);
      if (!tick) throw new CommandFailure(`tick ${n} does not exist on ${client.target} (yet)`);
      console.log(v.json ? tickJson(tick) : describeTick(tick));
      return 0;
    } finally {
      client.close();
    }
  },
};

const watch: Subcommand = {
  spec: {
    name: 'ticks watch',
    summary: 'print a line per tick as the node makes them (StreamTicks)',
    usage: '[options]',
    description:
      'Follows the node live until Ctrl-C, --count ticks, or the node shuts down. With --from it first replays stored ticks from N, in order and without gaps.',
    options: [
      { name: 'from', type: 'string', value: 'N', help: 'first tick to show', defaultHelp: 'the latest' },
      { name: 'count', short: 'n', type: 'string', value: 'K', help: 'stop after K ticks', defaultHelp: 'never' },
      { name: 'json', type: 'boolean', help: 'one JSON object per line (the tick with its transactions)' },
      GRPC_URL_OPTION,
    ],
    examples: ['svc ticks watch', 'svc ticks watch --from 1 --count 10 --json'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const from = optional(v, 'from') === undefined ? 0 : wholeNumber(optional(v, 'from')!, '--from', 1, MAX_TICK);
    const count = optional(v, 'count') === undefined ? Infinity : wholeNumber(optional(v, 'count')!, '--count', 1);
    const client = nodeClient(optional(v, 'grpc-url')!);
    const stream = client.streamTicks(from);
    let shown = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const stop = () => {
          stream.cancel();
          resolve();
        };
        process.once('SIGINT', stop);
        stream.on('data', (t: WireTick) => {
          if (shown >= count) return;
          shown++;
          console.log(v.json ? tickJson(t) : tickLine(t));
          if (shown >= count) stop();
        });
        stream.on('error', (err: ServiceError) => {
          if (err.code === status.CANCELLED) return resolve(); // we stopped it
          reject(explain(err, client.target));
        });
        stream.on('end', () => resolve());
        stream.on('close', () => process.off('SIGINT', stop));
      });
    } finally {
      client.close();
    }
    return 0;
  },
};

export const tick = group('tick', 'show one tick (svc tick get 42)', [get]);
export const ticks = group('ticks', 'follow ticks live (svc ticks watch)', [watch]);
export default tick;
