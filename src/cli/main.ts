/**
 * `svc <command> [args]`: one table of commands, each in its own module, loaded lazily so
 * `svc keygen` does not pay for starting gRPC. Exit codes: 0 done, 1 the command failed,
 * 2 the command line is wrong (command.ts).
 */
import { readFileSync } from 'node:fs';
import { closest } from '../config/index.js';
import type { Command } from './command.js';

type CommandLoader = () => Promise<Command>;

/** Each command module default-exports a Command; listed in the order --help shows them. */
const commands: Record<string, CommandLoader> = {
  node: () => import('./node-command.js').then((m) => m.default),
  status: () => import('./status-command.js').then((m) => m.default),
  tx: () => import('./tx-command.js').then((m) => m.default),
  tick: () => import('./tick-command.js').then((m) => m.tick),
  ticks: () => import('./tick-command.js').then((m) => m.ticks),
  verify: () => import('./verify-command.js').then((m) => m.default),
  keygen: () => import('./dex-keygen.js').then((m) => m.default),
  market: () => import('./dex-market.js').then((m) => m.default),
  order: () => import('./dex-order.js').then((m) => m.default),
  receipt: () => import('./dex-receipt.js').then((m) => m.default),
  chain: () => import('./chain-command.js').then((m) => m.default),
  indexer: () => import('./indexer-command.js').then((m) => m.default),
};

/** "svc 0.1.0 (node v20.19.0)". */
export function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return `svc ${pkg.version} (node ${process.version})`;
}

async function usage(): Promise<string> {
  const lines = ['usage: svc <command> [options]', '', 'commands:'];
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(9)} ${(await load()).summary}`);
  lines.push(
    '',
    "run 'svc <command> --help' for a command's options, defaults and environment variables;",
    "'svc --version' for the version. Exit codes: 0 done, 1 failed, 2 bad command line.",
  );
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(versionLine());
    return 0;
  }
  const load = commands[name];
  if (!load) {
    const guess = closest(name, Object.keys(commands));
    console.error(`svc: unknown command '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}\n\n${await usage()}`);
    return 2;
  }
  const command = await load();
  return command.run(rest);
}
