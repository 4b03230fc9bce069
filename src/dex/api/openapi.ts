/**
 * The OpenAPI 3.0 document served at GET /openapi.json, written by hand to match
 * http.ts, validate.ts and views.ts (test/dex/api/openapi.test.ts checks routes and codes).
 */
const u64 = {
  type: 'string',
  pattern: '^\\d{1,20}$',
  description: 'u64 as a decimal string (a JSON integer up to 2^53-1 is also accepted in requests)',
};
const base58Key = { type: 'string', description: 'Base58 of 32 bytes' };
const hex64 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const hex128 = { type: 'string', pattern: '^[0-9a-fA-F]{128}$' };
const uuid = {
  type: 'string',
  format: 'uuid',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
};

const ok = (data: object) => ({
  type: 'object',
  required: ['ok', 'data'],
  properties: { ok: { type: 'boolean', enum: [true] }, data },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: `error ${c}`, content: json(ref('Error')) }]));
const marketIdParam = { name: 'market_id', in: 'path', required: true, schema: uuid };

export const openApiDocument = {
  openapi: '3.0.3',
  info: { title: 'svc order book API', version: '1', description: 'spec/2; see docs/dex-api.md and docs/signing.md' },
  paths: {
    '/health': {
      get: {
        summary: 'liveness, sequencer id and public key',
        responses: { '200': { description: 'ok', content: json(ok(ref('Health'))) } },
      },
    },
    '/markets': {
      get: {
        summary: 'list markets',
        responses: { '200': { description: 'ok', content: json(ok({ type: 'array', items: ref('Market') })) } },
      },
      post: {
        summary: 'create a market (sequenced; answers once applied)',
        requestBody: { required: true, content: json(ref('CreateMarket')) },
        responses: {
          '201': { description: 'created', content: json(ok(ref('Market'))) },
          ...errors(400, 409, 413, 415, 503, 504),
        },
      },
    },
    '/markets/{market_id}/orderbook': {
      get: {
        summary: 'aggregated book, best first, with the state root',
        parameters: [
          marketIdParam,
          { name: 'depth', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 } },
          {
            name: 'orders',
            in: 'query',
            description: 'true: also list every resting order with its slot (to recompute merkle_root)',
            schema: { type: 'boolean', default: false },
          },
        ],
        responses: { '200': { description: 'ok', content: json(ok(ref('OrderBook'))) }, ...errors(400, 404) },
      },
    },
    '/markets/{market_id}/trades': {
      get: {
        summary: 'recent trades, newest first',
        parameters: [
          marketIdParam,
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        ],
        responses: {
          '200': { description: 'ok', content: json(ok({ type: 'array', items: ref('Trade') })) },
          ...errors(400, 404),
        },
      },
    },
    '/orders': {
      post: {
        summary: 'place a signed limit order; answers with its receipt once its tick is durable and applied',
        requestBody: { required: true, content: json(ref('PlaceOrder')) },
        responses: {
          '200': { description: 'processed', content: json(ok(ref('OrderResult'))) },
          ...errors(400, 401, 404, 409, 413, 415, 503, 504),
        },
      },
    },
    '/orders/cancel': {
      post: {
        summary: 'cancel an open order (owner only)',
        requestBody: { required: true, content: json(ref('CancelOrder')) },
        responses: {
          '200': { description: 'cancelled', content: json(ok(ref('CancelResult'))) },
          ...errors(400, 401, 404, 409, 413, 415, 503, 504),
        },
      },
    },
    '/orders/batch': {
      post: {
        summary:
          'up to 64 signed orders and cancels, each checked, sequenced and answered as its single call, in the given order (docs/dex-api.md "Batches"); ' +
          "200 whatever the items' outcomes; refused whole (nothing taken) over 64 items (400 BATCH_TOO_LARGE), over 64 KiB (413) or beyond the address's fair share (503 QUEUE_FULL)",
        requestBody: { required: true, content: json(ref('Batch')) },
        responses: {
          '200': { description: 'one result per item, in order', content: json(ok(ref('BatchResults'))) },
          ...errors(400, 413, 415, 503),
        },
      },
    },
    '/orders/cancel-all': {
      post: {
        summary:
          'mass cancel: every open order of the owner in one market (or one side of it), judged where it is sequenced',
        requestBody: { required: true, content: json(ref('CancelAll')) },
        responses: {
          '200': { description: 'applied; cancelled may be empty', content: json(ok(ref('CancelAllResult'))) },
          ...errors(400, 401, 404, 409, 413, 415, 503, 504),
        },
      },
    },
    '/openapi.json': { get: { summary: 'this document', responses: { '200': { description: 'OpenAPI 3 document' } } } },
  },
  components: {
    schemas: {
      Error: {
        type: 'object',
        required: ['ok', 'error', 'code'],
        properties: { ok: { type: 'boolean', enum: [false] }, error: { type: 'string' }, code: { type: 'string' } },
      },
      Health: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['ok'] },
          sequencer_id: { type: 'string' },
          public_key: base58Key,
          public_key_hex: hex64,
          timestamp: { type: 'integer', description: 'microseconds' },
          tick_number: { type: 'integer', description: 'last tick applied to the books' },
          markets: { type: 'integer' },
        },
      },
      CreateMarket: {
        type: 'object',
        required: ['base_mint', 'quote_mint', 'name'],
        properties: {
          base_mint: base58Key,
          quote_mint: base58Key,
          name: { type: 'string', minLength: 1, maxLength: 64 },
          kind: { type: 'string', enum: ['Spot', 'Perp'], default: 'Spot' },
        },
      },
      Market: {
        type: 'object',
        properties: {
          market_id: uuid,
          base_mint: base58Key,
          quote_mint: base58Key,
          name: { type: 'string' },
          kind: { type: 'string', enum: ['Spot', 'Perp'] },
          created_tick: { type: 'integer' },
        },
      },
      Level: { type: 'object', properties: { price: u64, quantity: u64, orders: { type: 'integer' } } },
      OrderBook: {
        type: 'object',
        properties: {
          market_id: uuid,
          bids: { type: 'array', items: ref('Level') },
          asks: { type: 'array', items: ref('Level') },
          merkle_root: hex64,
          last_sequence: u64,
          tick_number: { type: 'integer' },
          tree_size: { type: 'integer', description: 'slots covered by merkle_root (a power of two)' },
          orders: { type: 'array', items: ref('SlotOrder') },
        },
      },
      SlotOrder: {
        type: 'object',
        properties: {
          slot: { type: 'integer' },
          continuum_sequence: u64,
          order_id: u64,
          owner: base58Key,
          side: { type: 'string', enum: ['Buy', 'Sell'] },
          price: u64,
          quantity: u64,
          remaining: u64,
          expiry: { type: 'string' },
        },
      },
      Trade: {
        type: 'object',
        properties: {
          trade_id: u64,
          market_id: uuid,
          price: u64,
          quantity: u64,
          taker_side: { type: 'string', enum: ['Buy', 'Sell'] },
          maker_order_id: u64,
          maker_owner: base58Key,
          taker_order_id: u64,
          taker_owner: base58Key,
          tick_number: { type: 'integer' },
          continuum_sequence: u64,
          timestamp_ms: { type: 'integer' },
        },
      },
      PlaceOrder: {
        type: 'object',
        required: ['order_id', 'owner', 'side', 'price', 'quantity', 'expiry', 'base_mint', 'quote_mint', 'signature'],
        properties: {
          order_id: u64,
          owner: base58Key,
          side: { type: 'string', enum: ['Buy', 'Sell'] },
          price: u64,
          quantity: u64,
          expiry: { type: 'string', description: 'i64 unix seconds as decimal string or integer; 0 = no expiry' },
          base_mint: base58Key,
          quote_mint: base58Key,
          signature: hex128,
        },
      },
      CancelOrder: {
        type: 'object',
        required: ['order_id', 'owner', 'market_id', 'signature'],
        properties: { order_id: u64, owner: base58Key, market_id: uuid, signature: hex128 },
      },
      CancelAll: {
        type: 'object',
        required: ['request_id', 'owner', 'market_id', 'signature'],
        properties: {
          request_id: {
            ...u64,
            description: 'u64 chosen by the owner, usable once per owner, ever (decimal string or integer)',
          },
          owner: base58Key,
          market_id: uuid,
          side: { type: 'string', enum: ['Buy', 'Sell'], description: 'only this side; absent: both sides' },
          signature: hex128,
        },
      },
      Receipt: {
        type: 'object',
        properties: {
          order_id: u64,
          owner: base58Key,
          timestamp_ms: { type: 'integer' },
          sequencer_id: { type: 'string' },
          merkle_root: hex64,
          sequencer_signature: hex128,
          tick_number: { type: 'integer' },
          continuum_sequence: u64,
          tx_hash: hex64,
        },
      },
      OrderResult: {
        type: 'object',
        properties: {
          receipt: ref('Receipt'),
          status: { type: 'string', enum: ['resting', 'partially_filled', 'filled'] },
          filled_quantity: u64,
          remaining_quantity: u64,
          trades: { type: 'array', items: ref('Trade') },
        },
      },
      CancelResult: { type: 'object', properties: { receipt: ref('Receipt'), order_id: u64, cancelled_quantity: u64 } },
      Batch: {
        type: 'object',
        required: ['items'],
        properties: {
          items: {
            type: 'array',
            minItems: 1,
            maxItems: 64,
            items: {
              oneOf: [
                {
                  allOf: [
                    { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['order'] } } },
                    ref('PlaceOrder'),
                  ],
                },
                {
                  allOf: [
                    { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['cancel'] } } },
                    ref('CancelOrder'),
                  ],
                },
              ],
            },
          },
        },
      },
      BatchResults: {
        type: 'object',
        properties: {
          results: {
            type: 'array',
            items: {
              oneOf: [
                {
                  type: 'object',
                  required: ['ok', 'data'],
                  properties: {
                    ok: { type: 'boolean', enum: [true] },
                    data: { oneOf: [ref('OrderResult'), ref('CancelResult')] },
                  },
                },
                {
                  type: 'object',
                  required: ['ok', 'error', 'code', 'status'],
                  properties: {
                    ok: { type: 'boolean', enum: [false] },
                    error: { type: 'string' },
                    code: { type: 'string' },
                    status: { type: 'integer', description: 'the HTTP status of the single call' },
                  },
                },
              ],
            },
          },
        },
      },
      CancelAllResult: {
        type: 'object',
        properties: {
          receipt: { ...ref('Receipt'), description: 'a cancel receipt whose order_id is the request_id' },
          request_id: u64,
          market_id: uuid,
          side: { type: 'string', enum: ['Buy', 'Sell', 'Both'] },
          cancelled: {
            type: 'array',
            description: 'the orders it ended, in continuum_sequence order',
            items: {
              type: 'object',
              properties: {
                order_id: u64,
                side: { type: 'string', enum: ['Buy', 'Sell'] },
                price: u64,
                cancelled_quantity: u64,
              },
            },
          },
        },
      },
    },
  },
} as const;
