/**
 * `svc <command> [args]`: one table of subcommands, each in its own module, loaded lazily
 * so `svc keygen` does not pay for starting gRPC.
 */
export interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}

type CommandLoader = () => Promise<Command>;

/** Each subcommand module default-exports a Command. */
const commands: Record<string, CommandLoader> = {
  node: () => import('./node-command.js').then((m) => m.default),
  keygen: () => import('./dex-keygen.js').then((m) => m.default),
  market: () => import('./dex-market.js').then((m) => m.default),
  order: () => import('./dex-order.js').then((m) => m.default),
  receipt: () => import('./dex-receipt.js').then((m) => m.default),
  chain: () => import('./chain-command.js').then((m) => m.default),
};

async function usage(): Promise<string> {
  const lines = ['usage: svc <command> [options]', '', 'commands:'];
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(9)} ${(await load()).summary}`);
  lines.push('', "run 'svc <command> --help' for a command's options");
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 1;
  }
  const load = commands[name];
  if (!load) {
    console.error(`svc: unknown command '${name}'\n\n${await usage()}`);
    return 2;
  }
  const command = await load();
  return command.run(rest);
}
