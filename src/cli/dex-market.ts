/**
 * `svc market create --base B58 --quote B58 --name NAME [--kind Spot|Perp] [--quiet]`
 * and `svc market list`: the order book's markets (spec/2) over its HTTP API.
 */
import { DexClient } from '../sdk/index.js';
import { group, type Subcommand } from './command.js';
import { DEX_URL_OPTION, printJson } from './dex-common.js';
import { optional, required, UsageError } from './options.js';

const create: Subcommand = {
  spec: {
    name: 'market create',
    summary: 'create a market for a base/quote pair of mints',
    usage: '--base B58 --quote B58 --name NAME [options]',
    description: 'Prints the new market as JSON, or with --quiet only its market_id (M=$(svc market create ... -q)).',
    options: [
      { name: 'base', type: 'string', value: 'B58', help: 'base mint, Base58 (32 bytes)' },
      { name: 'quote', type: 'string', value: 'B58', help: 'quote mint, Base58 (32 bytes)' },
      { name: 'name', type: 'string', value: 'NAME', help: 'display name, 1..64 bytes' },
      { name: 'kind', type: 'string', value: 'KIND', help: 'Spot or Perp', default: 'Spot' },
      { name: 'quiet', short: 'q', type: 'boolean', help: 'print only the market_id' },
      DEX_URL_OPTION,
    ],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const kind = optional(v, 'kind');
    if (kind !== 'Spot' && kind !== 'Perp') throw new UsageError('--kind must be Spot or Perp');
    const market = await new DexClient(optional(v, 'url')!).createMarket({
      base_mint: required(v, 'base'),
      quote_mint: required(v, 'quote'),
      name: required(v, 'name'),
      kind,
    });
    if (v.quiet) console.log(market.market_id);
    else printJson(market);
    return 0;
  },
};

const list: Subcommand = {
  spec: { name: 'market list', summary: 'list the markets as JSON', usage: '[options]', options: [DEX_URL_OPTION] },
  async run(v) {
    printJson(await new DexClient(optional(v, 'url')!).listMarkets());
    return 0;
  },
};

export default group('market', 'create or list markets (svc market create --base .. --quote .. --name ..)', [
  create,
  list,
]);
