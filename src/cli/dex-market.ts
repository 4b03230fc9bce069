/**
 * `svc market create --base B58 --quote B58 --name NAME [--kind Spot|Perp] [--url URL]`
 * and `svc market list [--url URL]`.
 */
import { DexClient } from '../sdk/index.js';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';
import { dexUrl, guard, need, printJson } from './dex-common.js';

const USAGE = 'usage: svc market create --base <base58> --quote <base58> --name <name> [--kind Spot|Perp] [--url URL]\n       svc market list [--url URL]';

const command: Command = {
  summary: 'create or list markets (svc market create --base .. --quote .. --name ..)',
  run: (args) =>
    guard(async () => {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: {
        base: { type: 'string' },
        quote: { type: 'string' },
        name: { type: 'string' },
        kind: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      } });
      const client = new DexClient(dexUrl(values.url));
      if (values.help || positionals.length !== 1) {
        console.log(USAGE);
        return values.help ? 0 : 2;
      }
      if (positionals[0] === 'list') {
        printJson(await client.listMarkets());
        return 0;
      }
      if (positionals[0] !== 'create') throw new Error(`unknown subcommand '${positionals[0]}'\n${USAGE}`);
      const kind = values.kind ?? 'Spot';
      if (kind !== 'Spot' && kind !== 'Perp') throw new Error('--kind must be Spot or Perp');
      printJson(await client.createMarket({ base_mint: need(values.base, 'base'), quote_mint: need(values.quote, 'quote'), name: need(values.name, 'name'), kind }));
      return 0;
    }),
};
export default command;
