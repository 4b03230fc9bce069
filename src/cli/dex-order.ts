/**
 * `svc order place --key NAME --market ID --side buy|sell --price N --quantity N ...` and
 * `svc order cancel --key NAME --market ID --order-id N`: sign with the key (docs/signing.md)
 * and print the node's answer, whose `receipt` `svc receipt verify` checks. --receipt-out
 * keeps the receipt in the svc directory (receipts/NAME.json) or a file.
 */
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { buildCancelBody, buildOrderBody, DexClient, fromBase58Key } from '../sdk/index.js';
import { group, type Subcommand } from './command.js';
import {
  DEX_URL_OPTION,
  ensureDirFor,
  HOME_HELP,
  isPath,
  printJson,
  readKeyFile,
  resolveFile,
  u64,
} from './dex-common.js';
import { CommandFailure, optional, required, UsageError, type OptionSpec } from './options.js';
import { prove } from './order-prove.js';
import { batch } from './dex-batch.js';
import { cancelAll } from './order-cancel-all.js';

const KEY: OptionSpec = {
  name: 'key',
  short: 'k',
  type: 'string',
  value: 'NAME|FILE',
  help: `key from 'svc keygen NAME' (in ${HOME_HELP}/keys), or a key file path`,
};
const MARKET: OptionSpec = {
  name: 'market',
  short: 'm',
  type: 'string',
  value: 'ID',
  help: 'market_id (from svc market create or list)',
};

const place: Subcommand = {
  spec: {
    name: 'order place',
    summary: 'sign and place a limit order; prints the result with its signed receipt',
    usage: '--key NAME --market ID --side buy|sell --price N --quantity N [options]',
    options: [
      KEY,
      MARKET,
      { name: 'side', type: 'string', value: 'SIDE', help: 'buy or sell' },
      { name: 'price', type: 'string', value: 'N', help: 'limit price, u64' },
      { name: 'quantity', type: 'string', value: 'N', help: 'quantity, u64' },
      {
        name: 'expiry',
        type: 'string',
        value: 'UNIX_SECONDS',
        help: 'expiry time (0 = good until cancelled)',
        default: '0',
      },
      {
        name: 'order-id',
        type: 'string',
        value: 'N',
        help: 'order id, u64, unique per key',
        defaultHelp: 'time-based, new each time',
      },
      {
        name: 'receipt-out',
        type: 'string',
        value: 'NAME|FILE',
        help: `save the receipt as ${HOME_HELP}/receipts/NAME.json, or in FILE`,
      },
      DEX_URL_OPTION,
    ],
    examples: ['svc order place --key alice --market $M --side sell --price 101 --quantity 5 --receipt-out alice-sell'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const url = optional(v, 'url')!;
    const client = new DexClient(url);
    const kp = await readKeyFile(required(v, 'key'));
    const marketId = required(v, 'market');
    const side = required(v, 'side').toLowerCase();
    if (side !== 'buy' && side !== 'sell') throw new UsageError('--side must be buy or sell');
    const price = u64(required(v, 'price'), 'price');
    const quantity = u64(required(v, 'quantity'), 'quantity');
    const expiry = BigInt(u64(optional(v, 'expiry')!, 'expiry'));
    const orderId =
      optional(v, 'order-id') !== undefined
        ? u64(optional(v, 'order-id')!, 'order-id')
        : BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
    const receiptOut = optional(v, 'receipt-out');
    const receiptPath = receiptOut === undefined ? undefined : resolveFile('receipts', receiptOut);
    const market = (await client.listMarkets()).find((m) => m.market_id === marketId);
    if (!market) throw new CommandFailure(`no market ${marketId} on ${url} (svc market list shows them)`);
    const body = buildOrderBody(
      {
        orderId,
        owner: kp.publicKey,
        side: side === 'buy' ? 'Buy' : 'Sell',
        price,
        quantity,
        expiry,
        baseMint: fromBase58Key(market.base_mint, 'base_mint'),
        quoteMint: fromBase58Key(market.quote_mint, 'quote_mint'),
      },
      kp.secretKey,
    );
    const result = await client.placeOrder(body);
    if (receiptPath !== undefined) {
      if (!isPath(receiptOut!)) await ensureDirFor(receiptPath, 'receipts');
      await writeFile(receiptPath, `${JSON.stringify(result.receipt, null, 2)}\n`);
    }
    printJson(result);
    return 0;
  },
};

const cancel: Subcommand = {
  spec: {
    name: 'order cancel',
    summary: 'sign and send a cancel for one of your orders',
    usage: '--key NAME --market ID --order-id N [options]',
    options: [
      KEY,
      MARKET,
      { name: 'order-id', type: 'string', value: 'N', help: 'the order to cancel' },
      DEX_URL_OPTION,
    ],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const kp = await readKeyFile(required(v, 'key'));
    const orderId = u64(required(v, 'order-id'), 'order-id');
    printJson(
      await new DexClient(optional(v, 'url')!).cancelOrder(
        buildCancelBody({ orderId, owner: kp.publicKey, marketId: required(v, 'market') }, kp.secretKey),
      ),
    );
    return 0;
  },
};

const SUMMARY =
  'place, cancel, batch, mass-cancel or prove signed orders (svc order place --key alice --market ID --side buy ...)';
export default group('order', SUMMARY, [place, cancel, batch, cancelAll, prove]);
