/**
 * `svc chain <sub>`: the chain node's gRPC ChainService from the terminal (docs/chain.md):
 *
 *   svc chain market --base B58 --quote B58 --name NAME [--kind Spot|Perp]
 *   svc chain order  --key FILE --base B58 --quote B58 --side buy|sell --price N --quantity N
 *                    [--order-id N] [--expiry UNIX_SECONDS]
 *   svc chain cancel --key FILE --market UUID --order-id N
 *   svc chain stream [--from CONTINUUM_SEQUENCE] [--count N]     (one JSON line per batch)
 *
 * Every subcommand takes --grpc HOST:PORT (else SVC_GRPC, else 127.0.0.1:9090). Submissions
 * print the SubmitTx answer as JSON; gRPC errors print `error <STATUS>: <details>`, exit 1.
 */
import { status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ChainClient, signedCancelRequest, signedOrderRequest, type WireTxBatch } from '../chain/grpc/client.js';
import { fromBase58Key } from '../sdk/bytes.js';
import { need, printJson, readKeyFile, u64 } from './dex-common.js';
import type { Command } from './main.js';

export const DEFAULT_GRPC = '127.0.0.1:9090';

const USAGE = [
  'usage: svc chain market --base <base58> --quote <base58> --name <name> [--kind Spot|Perp] [--grpc HOST:PORT]',
  '       svc chain order  --key FILE --base <base58> --quote <base58> --side buy|sell --price N --quantity N [--order-id N] [--expiry SECS] [--grpc HOST:PORT]',
  '       svc chain cancel --key FILE --market <uuid> --order-id N [--grpc HOST:PORT]',
  '       svc chain stream [--from CONTINUUM_SEQUENCE] [--count N] [--grpc HOST:PORT]',
].join('\n');

const OPTIONS = {
  grpc: { type: 'string' },
  key: { type: 'string', short: 'k' },
  base: { type: 'string' },
  quote: { type: 'string' },
  name: { type: 'string' },
  kind: { type: 'string' },
  market: { type: 'string', short: 'm' },
  side: { type: 'string' },
  price: { type: 'string' },
  quantity: { type: 'string' },
  'order-id': { type: 'string' },
  expiry: { type: 'string' },
  from: { type: 'string' },
  count: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function submit(client: ChainClient, sub: string, v: Values): Promise<void> {
  if (sub === 'market') {
    const kind = v.kind ?? 'Spot';
    if (kind !== 'Spot' && kind !== 'Perp') throw new Error('--kind must be Spot or Perp');
    printJson(await client.submit({ market: { base_mint: fromBase58Key(need(v.base, 'base'), '--base'), quote_mint: fromBase58Key(need(v.quote, 'quote'), '--quote'), name: need(v.name, 'name'), kind } }));
    return;
  }
  const kp = await readKeyFile(need(v.key, 'key'));
  if (sub === 'cancel') {
    const orderId = u64(need(v['order-id'], 'order-id'), 'order-id');
    printJson(await client.submit(signedCancelRequest({ orderId, owner: kp.publicKey, marketId: need(v.market, 'market') }, kp.secretKey)));
    return;
  }
  const side = need(v.side, 'side').toLowerCase();
  if (side !== 'buy' && side !== 'sell') throw new Error('--side must be buy or sell');
  const orderId = v['order-id'] ? u64(v['order-id'], 'order-id') : BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
  const req = signedOrderRequest(
    {
      orderId,
      owner: kp.publicKey,
      side: side === 'buy' ? 'Buy' : 'Sell',
      price: u64(need(v.price, 'price'), 'price'),
      quantity: u64(need(v.quantity, 'quantity'), 'quantity'),
      expiry: v.expiry ? u64(v.expiry, 'expiry') : 0n,
      baseMint: fromBase58Key(need(v.base, 'base'), '--base'),
      quoteMint: fromBase58Key(need(v.quote, 'quote'), '--quote'),
    },
    kp.secretKey,
  );
  printJson(await client.submit(req));
}

function stream(client: ChainClient, v: Values): Promise<void> {
  const limit = v.count ? Number(u64(v.count, 'count')) : Infinity;
  const call = client.stream(v.from ? u64(v.from, 'from') : 0n);
  let seen = 0;
  return new Promise<void>((resolve, reject) => {
    call.on('data', (b: WireTxBatch) => {
      if (seen >= limit) return;
      console.log(JSON.stringify(b));
      if (++seen >= limit) {
        call.cancel();
        resolve();
      }
    });
    call.on('error', (err: ServiceError) => (err.code === grpcStatus.CANCELLED && seen >= limit ? resolve() : reject(err)));
    call.on('end', () => resolve());
  });
}

const command: Command = {
  summary: 'submit to and stream from the chain over gRPC (svc chain order|cancel|market|stream ...)',
  async run(args) {
    let client: ChainClient | undefined;
    try {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
      const sub = positionals[0];
      if (values.help || positionals.length !== 1 || !['market', 'order', 'cancel', 'stream'].includes(sub!)) {
        console.log(USAGE);
        return values.help ? 0 : 2;
      }
      client = new ChainClient(values.grpc ?? process.env.SVC_GRPC ?? DEFAULT_GRPC);
      if (sub === 'stream') await stream(client, values);
      else await submit(client, sub!, values);
      return 0;
    } catch (err) {
      const e = err as Partial<ServiceError>;
      if (typeof e.code === 'number' && e.details !== undefined) {
        console.error(`error ${grpcStatus[e.code]}: ${e.details}`);
        return 1;
      }
      console.error(`error: ${(err as Error).message}`);
      return 2;
    } finally {
      client?.close();
    }
  },
};
export default command;
