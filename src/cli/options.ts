/**
 * One table per subcommand drives its parsing, its environment variables, its defaults and
 * its --help, so they cannot drift apart (the same idea as src/config/flags.ts for
 * `svc node`). A value comes from the flag, else the option's environment variable, else
 * its default. Usage mistakes throw UsageError (exit 2); failures a command reports
 * (not found, verification failed, the node said no) throw CommandFailure (exit 1).
 */
import { parseArgs } from 'node:util';
import { explainArgsError, joinNegativeValues } from '../config/index.js';

export interface OptionSpec {
  name: string; // without dashes: 'grpc-url'
  short?: string; // one letter
  type: 'string' | 'boolean';
  value?: string; // placeholder in help: 'HOST:PORT'
  help: string;
  default?: string; // used when neither flag nor variable is given, and shown in help
  defaultHelp?: string; // what happens without the flag, when that is not a value ('the latest')
  env?: string; // environment variable read when the flag is absent
}

export interface CommandSpec {
  name: string; // 'tx send'
  summary: string; // one line, for `svc --help` and the subcommand list
  usage: string; // after 'svc <name> ': '[options] HASH'
  description?: string; // a paragraph for --help
  options: OptionSpec[];
  examples?: string[];
}

export type Values = Record<string, string | boolean | undefined>;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
}

const HELP: OptionSpec = { name: 'help', short: 'h', type: 'boolean', help: 'show this help' };

export function helpText(spec: CommandSpec): string {
  const lines = [`usage: svc ${spec.name} ${spec.usage}`.trimEnd(), '', spec.summary];
  if (spec.description) lines.push('', spec.description);
  lines.push('', 'options:');
  for (const o of [...spec.options, HELP]) {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    lines.push(`  ${flag.padEnd(30)} ${o.help}`);
    const shown = o.default ?? o.defaultHelp;
    const extra = [shown !== undefined ? `default ${shown}` : '', o.env ? `env ${o.env}` : '']
      .filter(Boolean)
      .join('; ');
    if (extra) lines.push(`  ${''.padEnd(30)} (${extra})`);
  }
  if (spec.examples?.length) lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

/** Parse `args` for `spec`: `{ help: true }` when --help was asked, else values and positionals. */
export function parseCommand(
  spec: CommandSpec,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { help: boolean; values: Values; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const o of [...spec.options, HELP])
    options[o.name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  let parsed: { values: Values; positionals: string[] };
  try {
    const joined = joinNegativeValues(args, (flag) => options[flag]?.type === 'string');
    parsed = parseArgs({ args: joined, options, allowPositionals: true, strict: true }) as {
      values: Values;
      positionals: string[];
    };
  } catch (err) {
    throw new UsageError(explainArgsError(err as Error, Object.keys(options)));
  }
  if (parsed.values.help) return { help: true, values: parsed.values, positionals: parsed.positionals };
  const values: Values = { ...parsed.values };
  for (const o of spec.options) {
    if (values[o.name] !== undefined) continue;
    const fromEnv = o.env ? env[o.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '')
      values[o.name] = o.type === 'boolean' ? fromEnv !== '0' && fromEnv !== 'false' : fromEnv;
    else if (o.default !== undefined && o.type === 'string') values[o.name] = o.default;
  }
  return { help: false, values, positionals: parsed.positionals };
}

/** A string option's value, or a UsageError naming it. */
export function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing --${name}`);
  return v;
}

export function optional(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A whole number in [min, max] from option `name` (or a positional named `name`). */
export function wholeNumber(text: string, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new UsageError(`${name} must be a whole number, got '${text}'`);
  const n = Number(t);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${name} must be from ${min} to ${max}, got ${t}`);
  return n;
}

/** An unsigned 64-bit integer as a decimal string (protobuf u64 on the wire). */
export function u64Text(text: string, name: string): string {
  const t = text.trim();
  if (!/^\d{1,20}$/.test(t) || BigInt(t) >= 1n << 64n)
    throw new UsageError(`${name} must be an unsigned 64-bit integer, got '${text}'`);
  return BigInt(t).toString();
}
