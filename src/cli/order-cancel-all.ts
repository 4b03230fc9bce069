/**
 * `svc order cancel-all --key NAME --market ID [--side buy|sell] [--request-id N]`: sign a
 * mass cancel (docs/signing.md "CancelAllData") and print the node's answer: the orders it
 * ended and a receipt (`svc receipt verify` checks it; its order_id is the request_id).
 * Without --request-id a new time-based id is used, so running it again cancels again.
 */
import { randomInt } from 'node:crypto';
import { buildCancelAllBody, DexClient, type CancelAllData } from '../sdk/index.js';
import type { Subcommand } from './command.js';
import { DEX_URL_OPTION, HOME_HELP, printJson, readKeyFile, u64 } from './dex-common.js';
import { optional, required, UsageError } from './options.js';

export const cancelAll: Subcommand = {
  spec: {
    name: 'order cancel-all',
    summary: 'sign and send a mass cancel: every open order of your key in one market (or one side of it)',
    usage: '--key NAME --market ID [--side buy|sell] [options]',
    options: [
      {
        name: 'key',
        short: 'k',
        type: 'string',
        value: 'NAME|FILE',
        help: `key from 'svc keygen NAME' (in ${HOME_HELP}/keys), or a key file path`,
      },
      { name: 'market', short: 'm', type: 'string', value: 'ID', help: 'market_id (from svc market create or list)' },
      { name: 'side', type: 'string', value: 'SIDE', help: 'buy or sell: only that side', defaultHelp: 'both sides' },
      {
        name: 'request-id',
        type: 'string',
        value: 'N',
        help: 'u64, usable once per key',
        defaultHelp: 'time-based, new each run',
      },
      DEX_URL_OPTION,
    ],
    examples: [
      'svc order cancel-all --key alice --market $M',
      'svc order cancel-all --key alice --market $M --side sell',
    ],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const kp = await readKeyFile(required(v, 'key'));
    const side = optional(v, 'side')?.toLowerCase();
    if (side !== undefined && side !== 'buy' && side !== 'sell') throw new UsageError('--side must be buy or sell');
    const given = optional(v, 'request-id');
    const fresh = (): bigint => BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
    const requestId = given !== undefined ? u64(given, 'request-id') : fresh();
    const data: CancelAllData = { requestId, owner: kp.publicKey, marketId: required(v, 'market') };
    if (side !== undefined) data.side = side === 'buy' ? 'Buy' : 'Sell';
    printJson(await new DexClient(optional(v, 'url')!).cancelAll(buildCancelAllBody(data, kp.secretKey)));
    return 0;
  },
};
