/**
 * `svc order batch --file PATH [--key NAME]`: up to 64 orders and cancels signed and sent
 * in one POST /orders/batch (docs/dex-api.md "Batches"). The file holds one JSON object a
 * line, with the fields of `svc order place` / `svc order cancel` (blank lines and lines
 * starting with # are skipped):
 *
 *   {"kind": "order", "market": "ID", "side": "buy", "price": "101", "quantity": "5", "order_id": "7"}
 *   {"kind": "cancel", "market": "ID", "order_id": "7", "key": "bob"}
 *
 * `key` defaults to --key; `expiry` to 0; an order's `order_id` to a new time-based id.
 * Prints the node's results, one per line of the file, in order; exit 0 when every item was
 * applied, 1 when any was refused (its code in its result) or the batch was refused whole.
 * Nothing is sent when a line does not parse (the line is named).
 */
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  buildCancelBody,
  buildOrderBody,
  DexClient,
  fromBase58Key,
  type BatchItemBody,
  type KeyPair,
  type MarketView,
} from '../sdk/index.js';
import type { Subcommand } from './command.js';
import { DEX_URL_OPTION, HOME_HELP, printJson, readKeyFile } from './dex-common.js';
import { CommandFailure, optional, required, UsageError } from './options.js';

/** Lines a batch file may hold (the node's limit). */
const MAX_LINES = 64;

export const batch: Subcommand = {
  spec: {
    name: 'order batch',
    summary: 'sign and send up to 64 orders and cancels in one request; prints one result per line of the file',
    usage: '--file PATH [--key NAME] [--url URL]',
    options: [
      {
        name: 'file',
        short: 'f',
        type: 'string',
        value: 'PATH',
        help: 'JSON lines: {"kind":"order"|"cancel", "market", "side", "price", "quantity", "expiry", "order_id", "key"} (fields of order place / cancel)',
      },
      {
        name: 'key',
        short: 'k',
        type: 'string',
        value: 'NAME|FILE',
        help: `the key of lines without "key" (from 'svc keygen NAME', in ${HOME_HELP}/keys, or a key file path)`,
      },
      DEX_URL_OPTION,
    ],
    examples: ['svc order batch --key alice --file quotes.jsonl'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const file = required(v, 'file');
    const lines = (await readFile(file, 'utf8'))
      .split('\n')
      .map((l, i) => ({ text: l.trim(), n: i + 1 }))
      .filter((l) => l.text !== '' && !l.text.startsWith('#'));
    if (lines.length === 0) throw new UsageError(`${file}: no orders or cancels in it`);
    if (lines.length > MAX_LINES)
      throw new UsageError(`${file}: ${lines.length} lines; a batch holds at most ${MAX_LINES}`);
    const client = new DexClient(optional(v, 'url')!);
    const markets = await client.listMarkets();
    const keys = new Map<string, KeyPair>();
    const items: BatchItemBody[] = [];
    for (const l of lines) items.push(await itemOf(l.text, `${file}:${l.n}`, optional(v, 'key'), keys, markets));
    const results = await client.placeBatch(items);
    printJson(results);
    return results.every((r) => r.ok) ? 0 : 1;
  },
};

async function itemOf(
  text: string,
  where: string,
  defaultKey: string | undefined,
  keys: Map<string, KeyPair>,
  markets: MarketView[],
): Promise<BatchItemBody> {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new UsageError(`${where}: not a JSON object`);
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new UsageError(`${where}: not a JSON object`);
  const str = (name: string, def?: string): string => {
    const x = o[name] ?? def;
    if (typeof x === 'number' && Number.isSafeInteger(x)) return String(x);
    if (typeof x !== 'string' || x === '') throw new UsageError(`${where}: "${name}" is missing or not a string`);
    return x;
  };
  const num = (name: string, def?: string): bigint => {
    const x = str(name, def);
    if (!/^\d{1,20}$/.test(x) || BigInt(x) >= 1n << 64n)
      throw new UsageError(`${where}: "${name}" must be an unsigned 64-bit integer`);
    return BigInt(x);
  };
  const keyName = str('key', defaultKey);
  let kp = keys.get(keyName);
  if (kp === undefined) {
    kp = await readKeyFile(keyName);
    keys.set(keyName, kp);
  }
  const marketId = str('market');
  if (o.kind === 'cancel')
    return {
      kind: 'cancel',
      ...buildCancelBody({ orderId: num('order_id'), owner: kp.publicKey, marketId }, kp.secretKey),
    };
  if (o.kind !== 'order') throw new UsageError(`${where}: "kind" must be "order" or "cancel"`);
  const market = markets.find((m) => m.market_id === marketId);
  if (!market) throw new CommandFailure(`${where}: no market ${marketId} on the node (svc market list shows them)`);
  const side = str('side').toLowerCase();
  if (side !== 'buy' && side !== 'sell') throw new UsageError(`${where}: "side" must be buy or sell`);
  const orderId = o.order_id !== undefined ? num('order_id') : BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
  const intent = {
    orderId,
    owner: kp.publicKey,
    side: side === 'buy' ? ('Buy' as const) : ('Sell' as const),
    price: num('price'),
    quantity: num('quantity'),
    expiry: num('expiry', '0'),
    baseMint: fromBase58Key(market.base_mint, 'base_mint'),
    quoteMint: fromBase58Key(market.quote_mint, 'quote_mint'),
  };
  return { kind: 'order', ...buildOrderBody(intent, kp.secretKey) };
}
