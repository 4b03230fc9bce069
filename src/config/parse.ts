/**
 * Parse `svc node` arguments and `SVC_*` environment variables into a NodeConfig.
 * Precedence: flag > environment > default. Pure: takes argv and env, returns an outcome.
 */
import { parseArgs } from 'node:util';
import { FLAGS, INDEXER_FLAGS, envName } from './flags.js';
import type { IndexerConfig } from '../indexer/interface.js';
import { closest } from './suggest.js';
import type { NodeConfig, ParseOutcome } from './interface.js';

export function helpText(): string {
  const lines = ['usage: svc node [options]', '', 'options (each also an environment variable; flags win):'];
  for (const f of FLAGS) {
    lines.push(`${`  --${f.flag} <value>`.padEnd(30)}${f.help}`);
    lines.push(`${''.padEnd(30)}env ${envName(f.flag)}, default ${f.defaultValue}`);
  }
  lines.push(`${'  -h, --help'.padEnd(30)}show this help`);
  return lines.join('\n');
}

/**
 * `--retain-ticks -5` means the value -5 (to be refused as out of range), not a flag `-5`:
 * a negative number after a flag that takes a value is joined to it as `--flag=-5`.
 */
export function joinNegativeValues(argv: readonly string[], takesValue: (flag: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (a.startsWith('--') && !a.includes('=') && takesValue(a.slice(2)) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** parseArgs' own error, said in this CLI's terms (unknown flags get a suggestion). */
export function explainArgsError(err: Error, knownFlags: readonly string[]): string {
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(err.message);
  if (unknown) {
    const guess = closest(unknown[2]!, knownFlags);
    return `unknown flag ${unknown[1]}${unknown[2]}${guess ? ` (did you mean --${guess}?)` : ''}`;
  }
  const missing = /^Option '(--[\w-]+)(?:, -\w)? <value>' argument missing/.exec(err.message);
  if (missing) return `${missing[1]} needs a value`;
  return err.message;
}

/** `svc indexer`'s flags and SVC_* variables (the same precedence), or why not. */
export function parseIndexerConfig(argv: string[], env: Record<string, string | undefined> = {}): IndexerParseOutcome {
  const args = readArgs(argv, INDEXER_FLAGS);
  if ('error' in args) return { kind: 'error', message: args.error };
  const { values } = args;
  if (values.help) return { kind: 'help', text: tableHelp('svc indexer', INDEXER_FLAGS) };
  const read = readTable(INDEXER_FLAGS, values, env, (flag) => `--${flag}`);
  if ('error' in read) return { kind: 'error', message: read.error };
  return { kind: 'config', config: read.config as IndexerConfig };
}

export type IndexerParseOutcome =
  | { kind: 'config'; config: IndexerConfig }
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string };

function tableHelp(
  command: string,
  table: ReadonlyArray<{ flag: string; help: string; defaultValue: string }>,
): string {
  const lines = [`usage: ${command} [options]`, '', 'options (each also an environment variable; flags win):'];
  for (const f of table) {
    lines.push(`${`  --${f.flag} <value>`.padEnd(30)}${f.help}`);
    lines.push(`${''.padEnd(30)}env ${envName(f.flag)}, default ${f.defaultValue === '' ? '(none)' : f.defaultValue}`);
  }
  lines.push(`${'  -h, --help'.padEnd(30)}show this help`);
  return lines.join('\n');
}

export function parseNodeConfig(argv: string[], env: Record<string, string | undefined> = {}): ParseOutcome {
  const args = readArgs(argv, FLAGS);
  if ('error' in args) return { kind: 'error', message: args.error };
  const { values } = args;
  if (values.help) return { kind: 'help', text: helpText() };

  const read = readTable(FLAGS, values, env, (flag) => `default of --${flag}`);
  if ('error' in read) return { kind: 'error', message: read.error };
  const parsed = read.config as NodeConfig;
  // Flags that only mean something on a full node: refused rather than silently ignored.
  if (parsed.follow === undefined) {
    if (parsed.followDex !== undefined)
      return {
        kind: 'error',
        message: "--follow-dex needs --follow (it names the leader's order book API of a full node)",
      };
    if (parsed.followFrom === 'snapshot')
      return { kind: 'error', message: '--follow-from snapshot needs --follow (a leader starts from its own store)' };
  }
  if (parsed.grpcEntryAddr !== undefined && (parsed.gateways === 0 || parsed.follow !== undefined))
    return {
      kind: 'error',
      message: '--grpc-entry-addr needs --gateways >= 1 on a leader (the gateway processes serve it)',
    };
  return { kind: 'config', config: parsed };
}

/** Parse or throw: for programmatic use (tests, benchmarks). */
export function nodeConfig(argv: string[], env: Record<string, string | undefined> = {}): NodeConfig {
  const outcome = parseNodeConfig(argv, env);
  if (outcome.kind === 'config') return outcome.config;
  throw new Error(outcome.kind === 'error' ? outcome.message : 'help requested');
}

/**
 * Each flag of `table` from its flag, else its SVC_* variable, else its default (named by
 * `defaultSource` in a refusal); or why one is not valid.
 */
function readTable<K extends string>(
  table: ReadonlyArray<{ flag: string; key: K; defaultValue: string; parse(text: string): unknown }>,
  values: ArgValues,
  env: Record<string, string | undefined>,
  defaultSource: (flag: string) => string,
): { config: Partial<Record<K, unknown>> } | { error: string } {
  const config: Partial<Record<K, unknown>> = {};
  for (const f of table) {
    const fromFlag = values[f.flag];
    const fromEnv = env[envName(f.flag)];
    const [text, source] =
      typeof fromFlag === 'string'
        ? [fromFlag, `--${f.flag}`]
        : fromEnv !== undefined && fromEnv !== ''
          ? [fromEnv, envName(f.flag)]
          : [f.defaultValue, defaultSource(f.flag)];
    try {
      config[f.key] = f.parse(text);
    } catch (err) {
      return { error: `invalid ${source}: ${(err as Error).message}` };
    }
  }
  return { config };
}

type ArgValues = Record<string, string | boolean | undefined>;

/** argv read against `table` (each flag takes a value) and -h/--help; or why not, in this CLI's terms. */
function readArgs(
  argv: readonly string[],
  table: ReadonlyArray<{ flag: string }>,
): { values: ArgValues } | { error: string } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const f of table) options[f.flag] = { type: 'string' };
  try {
    const args = joinNegativeValues(argv, (flag) => options[flag]?.type === 'string');
    return { values: parseArgs({ args, options, strict: true, allowPositionals: false }).values as ArgValues };
  } catch (err) {
    return { error: explainArgsError(err as Error, Object.keys(options)) };
  }
}
