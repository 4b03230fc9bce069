/**
 * `svc order place --key FILE --market ID --side buy|sell --price N --quantity N
 *                  [--expiry UNIX_SECONDS] [--order-id N] [--receipt-out FILE] [--url URL]`
 * `svc order cancel --key FILE --market ID --order-id N [--url URL]`
 * Signs with the key file's key (docs/signing.md) and prints the node's answer, whose
 * `receipt` can be checked with `svc receipt verify`.
 */
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { buildCancelBody, buildOrderBody, DexClient, fromBase58Key } from '../sdk/index.js';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';
import { dexUrl, guard, need, printJson, readKeyFile, u64 } from './dex-common.js';

const USAGE = [
  'usage: svc order place --key FILE --market ID --side buy|sell --price N --quantity N [--expiry SECS] [--order-id N] [--receipt-out FILE] [--url URL]',
  '       svc order cancel --key FILE --market ID --order-id N [--url URL]',
].join('\n');

const command: Command = {
  summary: 'place or cancel a signed order (svc order place --key k.json --market ID --side buy ...)',
  run: (args) =>
    guard(async () => {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: {
        key: { type: 'string', short: 'k' },
        market: { type: 'string', short: 'm' },
        side: { type: 'string' },
        price: { type: 'string' },
        quantity: { type: 'string' },
        expiry: { type: 'string' },
        'order-id': { type: 'string' },
        'receipt-out': { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      } });
      if (values.help || positionals.length !== 1) {
        console.log(USAGE);
        return values.help ? 0 : 2;
      }
      const client = new DexClient(dexUrl(values.url));
      const kp = await readKeyFile(need(values.key, 'key'));
      const marketId = need(values.market, 'market');
      if (positionals[0] === 'cancel') {
        const orderId = u64(need(values['order-id'], 'order-id'), 'order-id');
        printJson(await client.cancelOrder(buildCancelBody({ orderId, owner: kp.publicKey, marketId }, kp.secretKey)));
        return 0;
      }
      if (positionals[0] !== 'place') throw new Error(`unknown subcommand '${positionals[0]}'\n${USAGE}`);
      const market = (await client.listMarkets()).find((m) => m.market_id === marketId);
      if (!market) throw new Error(`no market ${marketId} on ${dexUrl(values.url)}`);
      const side = need(values.side, 'side').toLowerCase();
      if (side !== 'buy' && side !== 'sell') throw new Error('--side must be buy or sell');
      const orderId = values['order-id'] ? u64(values['order-id'], 'order-id') : BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
      const expiry = values.expiry ? BigInt(values.expiry) : 0n;
      const body = buildOrderBody(
        {
          orderId,
          owner: kp.publicKey,
          side: side === 'buy' ? 'Buy' : 'Sell',
          price: u64(need(values.price, 'price'), 'price'),
          quantity: u64(need(values.quantity, 'quantity'), 'quantity'),
          expiry,
          baseMint: fromBase58Key(market.base_mint, 'base_mint'),
          quoteMint: fromBase58Key(market.quote_mint, 'quote_mint'),
        },
        kp.secretKey,
      );
      const result = await client.placeOrder(body);
      if (values['receipt-out']) await writeFile(values['receipt-out'], JSON.stringify(result.receipt, null, 2) + '\n');
      printJson(result);
      return 0;
    }),
};
export default command;
