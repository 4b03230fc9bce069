/**
 * `svc chain <sub>`: the chain node's gRPC ChainService from the terminal (docs/chain.md):
 *
 *   svc chain market --base B58 --quote B58 --name NAME [--kind Spot|Perp]
 *   svc chain order  --key NAME|FILE --base B58 --quote B58 --side buy|sell --price N --quantity N
 *                    [--order-id N] [--expiry UNIX_SECONDS]
 *   svc chain cancel --key NAME|FILE --market UUID --order-id N
 *   svc chain stream [--from CONTINUUM_SEQUENCE] [--count N]     (one JSON line per batch)
 *   svc chain watch  [--channel blocks|orders|book] ...           (chain-watch.ts: WS /ws)
 *
 * Every gRPC subcommand takes --grpc-url HOST:PORT (else SVC_GRPC_URL, else 127.0.0.1:9090),
 * like the sequencer commands; `watch` takes --rpc-url (rpc-url.ts). Submissions print the SubmitTx answer as JSON; the node's gRPC
 * errors print `svc chain <sub>: the node answered <STATUS>: <details>`, exit 1 (command.ts).
 */
import { status as grpcStatus, type ServiceError } from '@grpc/grpc-js';
import { randomInt } from 'node:crypto';
import { ChainClient, signedCancelRequest, signedOrderRequest, type WireTxBatch } from '../chain/api/client/index.js';
import { fromBase58Key } from '../sdk/index.js';
import { watch } from './chain-watch.js';
import { group, type Subcommand } from './command.js';
import { HOME_HELP, printJson, readKeyFile, u64 } from './dex-common.js';
import { GRPC_URL_OPTION, grpcTarget } from './grpc.js';
import { optional, required, UsageError, type OptionSpec, type Values } from './options.js';

export const DEFAULT_GRPC = GRPC_URL_OPTION.default!;

const KEY: OptionSpec = {
  name: 'key',
  short: 'k',
  type: 'string',
  value: 'NAME|FILE',
  help: `key from 'svc keygen NAME' (in ${HOME_HELP}/keys), or a key file path`,
};
const BASE: OptionSpec = { name: 'base', type: 'string', value: 'B58', help: 'base mint, Base58 (32 bytes)' };
const QUOTE: OptionSpec = { name: 'quote', type: 'string', value: 'B58', help: 'quote mint, Base58 (32 bytes)' };

/** Run `body` with a ChainClient on --grpc-url, closed afterwards. */
async function withClient(v: Values, body: (client: ChainClient) => Promise<void>): Promise<number> {
  const client = new ChainClient(grpcTarget(optional(v, 'grpc-url')!));
  try {
    await body(client);
    return 0;
  } finally {
    client.close();
  }
}

const noPositionals = (positionals: string[]): void => {
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
};

const market: Subcommand = {
  spec: {
    name: 'chain market',
    summary: 'create a market through gRPC SubmitTx; prints the answer once its block record is stored',
    usage: '--base B58 --quote B58 --name NAME [options]',
    options: [
      BASE,
      QUOTE,
      { name: 'name', type: 'string', value: 'NAME', help: 'display name, 1..64 bytes' },
      { name: 'kind', type: 'string', value: 'KIND', help: 'Spot or Perp', default: 'Spot' },
      GRPC_URL_OPTION,
    ],
  },
  run(v, positionals) {
    noPositionals(positionals);
    const kind = optional(v, 'kind');
    if (kind !== 'Spot' && kind !== 'Perp') throw new UsageError('--kind must be Spot or Perp');
    const req = {
      market: {
        base_mint: fromBase58Key(required(v, 'base'), '--base'),
        quote_mint: fromBase58Key(required(v, 'quote'), '--quote'),
        name: required(v, 'name'),
        kind,
      },
    };
    return withClient(v, async (client) => printJson(await client.submit(req)));
  },
};

const order: Subcommand = {
  spec: {
    name: 'chain order',
    summary: 'sign and submit a limit order through gRPC SubmitTx',
    usage: '--key NAME --base B58 --quote B58 --side buy|sell --price N --quantity N [options]',
    options: [
      KEY,
      BASE,
      QUOTE,
      { name: 'side', type: 'string', value: 'SIDE', help: 'buy or sell' },
      { name: 'price', type: 'string', value: 'N', help: 'limit price, u64' },
      { name: 'quantity', type: 'string', value: 'N', help: 'quantity, u64' },
      {
        name: 'order-id',
        type: 'string',
        value: 'N',
        help: 'order id, u64, unique per key',
        defaultHelp: 'time-based, new each time',
      },
      {
        name: 'expiry',
        type: 'string',
        value: 'UNIX_SECONDS',
        help: 'expiry time (0 = good until cancelled)',
        default: '0',
      },
      GRPC_URL_OPTION,
    ],
  },
  async run(v, positionals) {
    noPositionals(positionals);
    const kp = await readKeyFile(required(v, 'key'));
    const side = required(v, 'side').toLowerCase();
    if (side !== 'buy' && side !== 'sell') throw new UsageError('--side must be buy or sell');
    const orderId =
      optional(v, 'order-id') !== undefined
        ? u64(optional(v, 'order-id')!, 'order-id')
        : BigInt(Date.now()) * 1000n + BigInt(randomInt(1000));
    const req = signedOrderRequest(
      {
        orderId,
        owner: kp.publicKey,
        side: side === 'buy' ? 'Buy' : 'Sell',
        price: u64(required(v, 'price'), 'price'),
        quantity: u64(required(v, 'quantity'), 'quantity'),
        expiry: u64(optional(v, 'expiry')!, 'expiry'),
        baseMint: fromBase58Key(required(v, 'base'), '--base'),
        quoteMint: fromBase58Key(required(v, 'quote'), '--quote'),
      },
      kp.secretKey,
    );
    return withClient(v, async (client) => printJson(await client.submit(req)));
  },
};

const cancel: Subcommand = {
  spec: {
    name: 'chain cancel',
    summary: 'sign and submit a cancel through gRPC SubmitTx',
    usage: '--key NAME --market UUID --order-id N [options]',
    options: [
      KEY,
      { name: 'market', short: 'm', type: 'string', value: 'UUID', help: 'market_id' },
      { name: 'order-id', type: 'string', value: 'N', help: 'the order to cancel' },
      GRPC_URL_OPTION,
    ],
  },
  async run(v, positionals) {
    noPositionals(positionals);
    const kp = await readKeyFile(required(v, 'key'));
    const req = signedCancelRequest(
      { orderId: u64(required(v, 'order-id'), 'order-id'), owner: kp.publicKey, marketId: required(v, 'market') },
      kp.secretKey,
    );
    return withClient(v, async (client) => printJson(await client.submit(req)));
  },
};

const stream: Subcommand = {
  spec: {
    name: 'chain stream',
    summary: 'follow gRPC StreamTx: one JSON line per batch of sequenced order book transactions',
    usage: '[options]',
    options: [
      {
        name: 'from',
        type: 'string',
        value: 'CONTINUUM_SEQUENCE',
        help: 'first continuum_sequence',
        defaultHelp: '0, the start',
      },
      { name: 'count', short: 'n', type: 'string', value: 'N', help: 'stop after N batches', defaultHelp: 'never' },
      GRPC_URL_OPTION,
    ],
  },
  run(v, positionals) {
    noPositionals(positionals);
    const limit = optional(v, 'count') !== undefined ? Number(u64(optional(v, 'count')!, 'count')) : Infinity;
    const from = optional(v, 'from') !== undefined ? u64(optional(v, 'from')!, 'from') : 0n;
    return withClient(v, (client) => {
      const call = client.stream(from);
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
        call.on('error', (err: ServiceError) =>
          err.code === grpcStatus.CANCELLED && seen >= limit ? resolve() : reject(err),
        );
        call.on('end', () => resolve());
      });
    });
  },
};

export default group(
  'chain',
  'submit to and stream from the chain over gRPC, follow its live channels (svc chain order|cancel|market|stream|watch ...)',
  [market, order, cancel, stream, watch],
);
