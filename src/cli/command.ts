/**
 * Running a subcommand: parse its option table (options.ts), print --help, run it, and turn
 * what went wrong into one line on stderr and an exit code:
 *   0 done; 1 the command failed (not found, a bad tick, the node refused or is unreachable);
 *   2 the command line is wrong (unknown flag, missing or malformed value, no such file).
 * A group (`svc tx send|get`) dispatches to its subcommands and lists them for --help.
 */
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { DexApiError } from '../sdk/index.js';
import { CommandFailure, helpText, parseCommand, UsageError, type CommandSpec, type Values } from './options.js';

/** One `svc <name>` command: main.ts's table maps each name to a module default-exporting one. */
export interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}

export interface Subcommand {
  spec: CommandSpec;
  run(values: Values, positionals: string[]): Promise<number>;
}

function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number' && 'details' in err;
}

/** The line and exit code for an error thrown by a subcommand. */
export function describeFailure(err: unknown): { line: string; code: number } {
  if (err instanceof UsageError) return { line: err.message, code: 2 };
  if (err instanceof CommandFailure) return { line: err.message, code: 1 };
  if (err instanceof DexApiError) return { line: `error ${err.status} ${err.code}: ${err.message}`, code: 1 };
  if (isServiceError(err)) {
    const name = GrpcStatus[err.code] ?? String(err.code);
    return { line: `the node answered ${name}: ${err.details}`, code: 1 };
  }
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (e?.code === 'ENOENT' || e?.code === 'EEXIST' || e?.code === 'EISDIR' || e?.code === 'EACCES')
    return { line: e.message, code: 2 };
  if (e?.cause?.code === 'ECONNREFUSED' || e?.cause?.code === 'ENOTFOUND')
    return { line: `cannot reach ${e.cause.message.replace(/^connect /, '')}: is the node running?`, code: 1 };
  if (err instanceof SyntaxError) return { line: `not valid JSON: ${err.message}`, code: 2 };
  return { line: (err as Error)?.message ?? String(err), code: 1 };
}

async function runSubcommand(sub: Subcommand, args: string[]): Promise<number> {
  const name = sub.spec.name;
  try {
    const { help, values, positionals } = parseCommand(sub.spec, args);
    if (help) {
      console.log(helpText(sub.spec));
      return 0;
    }
    return await sub.run(values, positionals);
  } catch (err) {
    const { line, code } = describeFailure(err);
    console.error(`svc ${name}: ${line}`);
    if (code === 2 && err instanceof UsageError) console.error(`run 'svc ${name} --help' for its options`);
    return code;
  }
}

/** `svc <name>` with one job. */
export function single(sub: Subcommand): Command {
  return { summary: sub.spec.summary, run: (args) => runSubcommand(sub, args) };
}

/** `svc <name> <sub>`: several jobs under one noun. */
export function group(name: string, summary: string, subs: Subcommand[]): Command {
  const usage = (): string =>
    [
      `usage: svc ${name} <${subs.map((s) => s.spec.name.split(' ').at(-1)).join('|')}> [options]`,
      '',
      summary,
      '',
      'commands:',
    ]
      .concat(subs.map((s) => `  svc ${s.spec.name.padEnd(16)} ${s.spec.summary}`))
      .concat(['', `run 'svc ${name} <command> --help' for a command's options`])
      .join('\n');
  return {
    summary,
    async run(args) {
      const [first, ...rest] = args;
      if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
        console.log(usage());
        return first === undefined ? 2 : 0;
      }
      const sub = subs.find((s) => s.spec.name === `${name} ${first}`);
      if (!sub) {
        console.error(`svc ${name}: unknown command '${first}'\n\n${usage()}`);
        return 2;
      }
      return runSubcommand(sub, rest);
    },
  };
}
