/**
 * The OpenAPI 3.0 document of the indexer (GET /openapi.json on --indexer-addr): the
 * node's explorer paths it serves, taken from the node's own document so the two cannot
 * drift, plus the history paths and /health, written by hand to match history-routes.ts.
 */
import { explorerOpenApi } from '../chain/api/index.js';
import { HISTORY_LIMIT } from './cursor.js';
import { MAX_CANDLES } from './history-routes.js';

const SHARED = ['/blocks', '/blocks/latest', '/blocks/{height}', '/transactions/{id}', '/events'] as const;

const dec = { type: 'string', pattern: '^[0-9]{1,40}$', description: 'u64 (or a sum of them), decimal' };
const int = { type: 'integer', minimum: 0 };
const base58 = { type: 'string', description: 'Base58 of 32 bytes' };
const uuid = { type: 'string', format: 'uuid' };
const txId = { type: 'string', description: '{height:016x}-{batch:04x}-{index:04x}' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: `error ${c}`, content: json(ref('Error')) }]));
const ok = (schema: object) => ({ '200': { description: 'ok', content: json(schema) } });
const obj = (properties: Record<string, object>) => ({ type: 'object', required: Object.keys(properties), properties });
const page = (key: string, item: string, head: Record<string, object>) =>
  obj({ ...head, [key]: { type: 'array', items: ref(item) }, next_cursor: { type: 'string', nullable: true } });
const market = { name: 'market_id', in: 'path', required: true, schema: uuid };
const owner = { name: 'owner', in: 'path', required: true, schema: base58 };
const paging = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: HISTORY_LIMIT.max, default: HISTORY_LIMIT.default },
  },
  { name: 'cursor', in: 'query', schema: { type: 'string' }, description: "a page's next_cursor, as it came" },
];

const paths = explorerOpenApi.paths as Record<string, object>;

export const indexerOpenApi = {
  openapi: '3.0.3',
  info: { title: 'svc indexer', version: '1', description: 'history from PostgreSQL; see docs/indexer.md' },
  paths: {
    ...Object.fromEntries(SHARED.map((p) => [p, paths[p]])),
    '/markets/{market_id}/trades': {
      get: {
        summary: "a market's trades, newest first",
        parameters: [market, ...paging],
        responses: { ...ok(page('trades', 'Trade', { market_id: uuid })), ...errors(400, 404, 503) },
      },
    },
    '/markets/{market_id}/candles': {
      get: {
        summary: `OHLCV buckets of one resolution in [from, to), oldest first (at most ${MAX_CANDLES})`,
        parameters: [
          market,
          {
            name: 'resolution',
            in: 'query',
            required: true,
            schema: { type: 'string', enum: ['1m', '5m', '1h', '1d'] },
          },
          { name: 'from', in: 'query', required: true, schema: int, description: 'unix seconds, inclusive' },
          { name: 'to', in: 'query', required: true, schema: int, description: 'unix seconds, exclusive' },
        ],
        responses: {
          ...ok(
            obj({ market_id: uuid, resolution: { type: 'string' }, candles: { type: 'array', items: ref('Candle') } }),
          ),
          ...errors(400, 404, 503),
        },
      },
    },
    '/owners/{owner}/orders': {
      get: {
        summary: 'every order of an owner, newest first',
        parameters: [owner, ...paging],
        responses: { ...ok(page('orders', 'Order', { owner: base58 })), ...errors(400, 503) },
      },
    },
    '/owners/{owner}/fills': {
      get: {
        summary: "an owner's side of each trade, newest first",
        parameters: [owner, ...paging],
        responses: { ...ok(page('fills', 'Fill', { owner: base58 })), ...errors(400, 503) },
      },
    },
    '/health': {
      get: {
        summary: 'database, NATS and stream position',
        responses: {
          '200': { description: 'healthy', content: json(ref('Health')) },
          '503': { description: 'degraded', content: json(ref('Health')) },
        },
      },
    },
    '/metrics': {
      get: { summary: 'Prometheus metrics', responses: { '200': { description: 'text exposition format' } } },
    },
  },
  components: {
    schemas: {
      ...explorerOpenApi.components.schemas,
      Trade: obj({
        trade_id: int,
        price: dec,
        quantity: dec,
        taker_side: { type: 'string', enum: ['Buy', 'Sell'] },
        maker_owner: base58,
        maker_order_id: dec,
        taker_owner: base58,
        taker_order_id: dec,
        continuum_sequence: dec,
        transaction_id: txId,
        block_height: int,
        timestamp_ms: int,
      }),
      Candle: obj({ time: int, open: dec, high: dec, low: dec, close: dec, volume: dec, trades: int }),
      Order: obj({
        market_id: uuid,
        order_id: dec,
        side: { type: 'string', enum: ['Buy', 'Sell'] },
        price: dec,
        quantity: dec,
        filled_quantity: dec,
        remaining: dec,
        expiry: dec,
        status: { type: 'string', enum: ['open', 'filled', 'cancelled', 'expired', 'self_trade'] },
        continuum_sequence: dec,
        transaction_id: txId,
        block_height: int,
        timestamp_ms: int,
        ended_by: { ...txId, nullable: true },
      }),
      Fill: obj({
        market_id: uuid,
        trade_id: int,
        order_id: dec,
        role: { type: 'string', enum: ['maker', 'taker'] },
        side: { type: 'string', enum: ['Buy', 'Sell'] },
        price: dec,
        quantity: dec,
        counterparty: base58,
        continuum_sequence: dec,
        transaction_id: txId,
        block_height: int,
        timestamp_ms: int,
      }),
      Health: obj({
        status: { type: 'string', enum: ['ok', 'degraded'] },
        state: { type: 'string' },
        database: { type: 'string' },
        nats: { type: 'string' },
        stream_seq: int,
        height: int,
        lag_messages: int,
        error: { type: 'string', nullable: true },
      }),
    },
  },
};
