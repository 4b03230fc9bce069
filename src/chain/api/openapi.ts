/**
 * The OpenAPI 3.0 document of the explorer REST (GET /openapi.json on --rpc-addr),
 * written by hand to match rest.ts and interface.ts; test/chain/api/rest.test.ts checks that
 * every route is documented with its status codes.
 */
const u64 = {
  type: 'integer',
  format: 'int64',
  minimum: 0,
  description: 'u64, written as an exact JSON integer (may exceed 2^53: parse with care)',
};
const int = { type: 'integer', minimum: 0 };
const hex64 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const base58 = { type: 'string', description: 'Base58 of 32 bytes' };
const uuid = {
  type: 'string',
  format: 'uuid',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
};
const id = {
  type: 'string',
  pattern: '^[0-9a-f]{16}-[0-9a-f]{4,8}-[0-9a-f]{4,8}$',
  description: '{height:016x}-{batch:04x}-{index:04x}',
};
const root32 = { type: 'array', items: { type: 'integer', minimum: 0, maximum: 255 }, minItems: 32, maxItems: 32 };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: `error ${c}`, content: json(ref('Error')) }]));
const ok = (schema: object) => ({ '200': { description: 'ok', content: json(schema) } });
const limit = (def: number, max: number) => ({
  name: 'limit',
  in: 'query',
  schema: { type: 'integer', minimum: 1, maximum: max, default: def },
  description: `above ${max}: 400`,
});
const offset = { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } };
const heightParam = {
  name: 'height',
  in: 'path',
  required: true,
  description: 'decimal digits; leading zeros allowed (the bound is on the value)',
  schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
};

export const explorerOpenApi = {
  openapi: '3.0.3',
  info: { title: 'svc chain explorer RPC', version: '1', description: 'spec/3; see docs/chain.md' },
  paths: {
    '/status': {
      get: { summary: 'latest block height, its state root, applied batches', responses: ok(ref('Status')) },
    },
    '/blocks': {
      get: {
        summary: 'blocks, height descending',
        parameters: [limit(20, 100), offset],
        responses: { ...ok({ type: 'array', items: ref('BlockRecord') }), ...errors(400) },
      },
    },
    '/blocks/latest': {
      get: { summary: 'detail of the latest block', responses: { ...ok(ref('BlockDetail')), ...errors(404) } },
    },
    '/blocks/{height}': {
      get: {
        summary: 'block detail',
        parameters: [heightParam],
        responses: { ...ok(ref('BlockDetail')), ...errors(400, 404) },
      },
    },
    '/blocks/{height}/ticks': {
      get: {
        summary:
          "the sequencer ticks behind the block's batches, as /api/v1/tick/{n} gives them (verify their VDF proofs in a browser)",
        parameters: [heightParam, limit(100, 500), offset],
        responses: {
          ...ok({
            type: 'object',
            required: ['block_height', 'total', 'offset', 'ticks'],
            properties: {
              block_height: int,
              total: int,
              offset: int,
              ticks: { type: 'array', items: { type: 'object' } },
            },
          }),
          ...errors(400),
          '404': {
            description: 'unknown block, or (pending: true, Retry-After: 1) one of its ticks has no stored proof yet',
            content: json(ref('PendingError')),
          },
        },
      },
    },
    '/transactions/{id}': {
      get: {
        summary: 'one transaction',
        parameters: [{ name: 'id', in: 'path', required: true, schema: id }],
        responses: { ...ok(ref('ExplorerTransaction')), ...errors(400, 404) },
      },
    },
    '/transactions/{id}/proof': {
      get: {
        summary:
          'the inclusion proof of the sequencer transaction behind a chain transaction, with the ids tying it to its block (docs/proofs.md)',
        parameters: [{ name: 'id', in: 'path', required: true, schema: id }],
        responses: {
          ...ok(ref('ChainTransactionProof')),
          ...errors(400),
          '404': {
            description:
              'unknown id, a market creation, or (pending: true, Retry-After: 1) its tick has no stored proof yet',
            content: json(ref('PendingError')),
          },
        },
      },
    },
    '/markets/{market_id}/orders/{order_id}/proof': {
      get: {
        summary:
          "an order's state proof (resting or not) against the latest produced block's state_root (docs/proofs.md)",
        parameters: [
          { name: 'market_id', in: 'path', required: true, schema: uuid },
          {
            name: 'order_id',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[0-9]{1,20}$', description: 'u64, decimal' },
          },
          { name: 'owner', in: 'query', required: true, schema: base58 },
          {
            name: 'book',
            in: 'query',
            schema: { type: 'string', enum: ['whole'] },
            description:
              'not-resting orders: every entry of the book instead of one slot (books of at most 4,096 entries; larger: 400)',
          },
        ],
        responses: { ...ok(ref('OrderStateProof')), ...errors(400, 404, 503) },
      },
    },
    '/events': {
      get: {
        summary: 'events, newest first',
        parameters: [limit(50, 200), offset, { name: 'market_id', in: 'query', schema: uuid }],
        responses: { ...ok({ type: 'array', items: ref('ExplorerEvent') }), ...errors(400, 404) },
      },
    },
    '/orders/user/{owner}': {
      get: {
        summary: "the owner's open (resting) orders, oldest first",
        parameters: [{ name: 'owner', in: 'path', required: true, schema: base58 }, limit(100, 1000), offset],
        responses: { ...ok(ref('OpenOrders')), ...errors(400, 404) },
      },
    },
    '/openapi.json': { get: { summary: 'this document', responses: { '200': { description: 'ok' } } } },
  },
  components: {
    schemas: {
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      PendingError: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string' }, found: { type: 'boolean' }, pending: { type: 'boolean' } },
      },
      InclusionProof: {
        type: 'object',
        description: 'docs/proofs.md "Transaction inclusion proof"',
        required: ['tick_number', 'index', 'transaction_count', 'tx', 'audit_path', 'batch_hash', 'tick'],
        properties: {
          tick_number: int,
          index: int,
          transaction_count: int,
          tx: { type: 'string', pattern: '^[0-9a-f]*$', description: "hex of the transaction's Borsh bytes" },
          audit_path: { type: 'array', items: hex64, description: 'leaf to root' },
          batch_hash: hex64,
          tick: { type: 'object', description: 'exactly what GET /api/v1/tick/{tick_number} serves' },
        },
      },
      ChainTransactionProof: {
        type: 'object',
        required: ['transaction_id', 'block_height', 'batch_index', 'continuum_sequence', 'proof'],
        properties: {
          transaction_id: id,
          block_height: int,
          batch_index: int,
          continuum_sequence: { type: 'string', pattern: '^[0-9]+$', description: 'u64, decimal string' },
          proof: ref('InclusionProof'),
        },
      },
      MerkleMember: {
        type: 'object',
        required: ['index', 'leaf', 'audit_path'],
        properties: {
          index: int,
          leaf: { type: 'string', pattern: '^[0-9a-f]*$' },
          audit_path: { type: 'array', items: hex64 },
        },
      },
      OrderStateProof: {
        type: 'object',
        description: 'docs/proofs.md "Order state proof"',
        required: [
          'state',
          'market_id',
          'owner',
          'order_id',
          'block_height',
          'tick_number',
          'state_root',
          'markets_root',
          'markets_size',
          'market_count',
          'used_ids_root',
          'used_id_count',
          'market',
        ],
        properties: {
          state: { type: 'string', enum: ['resting', 'not_resting'] },
          market_id: uuid,
          owner: base58,
          order_id: { type: 'string', pattern: '^[0-9]{1,20}$' },
          block_height: int,
          tick_number: int,
          state_root: hex64,
          markets_root: hex64,
          markets_size: int,
          market_count: int,
          used_ids_root: hex64,
          used_id_count: int,
          market: ref('MerkleMember'),
          book: ref('MerkleMember'),
          book_entries: { type: 'array', items: { type: 'string' } },
          used_id: ref('MerkleMember'),
          end: { type: 'string', enum: ['filled', 'cancelled', 'expired', 'self_trade', 'filled_on_arrival'] },
          ended_by: ref('ChainTransactionProof'),
        },
      },
      Status: {
        type: 'object',
        required: ['block_height', 'state_root', 'applied_batches'],
        properties: {
          block_height: int,
          state_root: root32,
          applied_batches: int,
          latest_tick: int,
          open_block_height: int,
          total_transactions: int,
          total_events: int,
        },
      },
      BatchSummary: {
        type: 'object',
        required: ['index', 'tick_number', 'order_count', 'cancel_count', 'continuum_sequences', 'batch_hash'],
        properties: {
          index: int,
          tick_number: int,
          order_count: int,
          cancel_count: int,
          continuum_sequences: { type: 'array', items: u64 },
          batch_hash: hex64,
          market_count: int,
        },
      },
      BlockRecord: {
        type: 'object',
        required: [
          'height',
          'state_root',
          'applied_batches',
          'applied_orders',
          'produced_at',
          'total_orders',
          'total_cancels',
          'batch_summaries',
          'transaction_ids',
          'event_ids',
        ],
        properties: {
          height: int,
          state_root: root32,
          applied_batches: int,
          applied_orders: int,
          produced_at: { type: 'integer', description: "unix seconds of the block's last tick" },
          total_orders: int,
          total_cancels: int,
          batch_summaries: { type: 'array', items: ref('BatchSummary') },
          transaction_ids: { type: 'array', items: id },
          event_ids: { type: 'array', items: id },
          total_markets: int,
          first_tick: int,
          last_tick: int,
          trade_count: int,
          last_tick_output_hash: {
            ...hex64,
            description: "SHA-256 of tick last_tick's 256-byte VDF output: the block's anchor in the tick chain",
          },
        },
      },
      ExplorerTransaction: {
        type: 'object',
        required: [
          'id',
          'block_height',
          'batch_index',
          'kind',
          'market_id',
          'market_name',
          'market_kind',
          'owner',
          'order_id',
          'timestamp_ms',
          'continuum_sequence',
          'signature',
          'tick_number',
          'sequence_number',
          'tx_hash',
        ],
        properties: {
          id,
          block_height: int,
          batch_index: int,
          kind: {
            type: 'string',
            enum: ['order', 'cancel', 'cancel_all'],
            description: 'cancel_all (extension): a mass cancel; its order_id is its request_id',
          },
          market_id: uuid,
          market_name: { type: 'string' },
          market_kind: { type: 'string', enum: ['Spot', 'Perp'] },
          owner: base58,
          side: { type: 'string', enum: ['Buy', 'Sell'] },
          price: u64,
          quantity: u64,
          base_mint: base58,
          quote_mint: base58,
          order_id: u64,
          timestamp_ms: int,
          continuum_sequence: u64,
          signature: { type: 'string', pattern: '^[0-9a-f]{128}$' },
          tick_number: int,
          sequence_number: int,
          tx_hash: hex64,
          expiry: u64,
          status: { type: 'string', enum: ['resting', 'partially_filled', 'filled'] },
          filled_quantity: u64,
          cancelled_quantity: u64,
          cancelled_order_ids: {
            type: 'array',
            items: u64,
            description: 'cancel_all: the orders it ended, in continuum_sequence order',
          },
        },
      },
      MarketCreation: {
        type: 'object',
        description:
          'extension: a market created by a batch; its id is {height}-{batch}-{index} with index its place among the batch entries',
        required: [
          'id',
          'block_height',
          'batch_index',
          'market_id',
          'market_name',
          'market_kind',
          'base_mint',
          'quote_mint',
          'timestamp_ms',
          'continuum_sequence',
          'tick_number',
          'sequence_number',
          'tx_hash',
        ],
        properties: {
          id,
          block_height: int,
          batch_index: int,
          market_id: uuid,
          market_name: { type: 'string' },
          market_kind: { type: 'string', enum: ['Spot', 'Perp'] },
          base_mint: base58,
          quote_mint: base58,
          timestamp_ms: int,
          continuum_sequence: u64,
          tick_number: int,
          sequence_number: int,
          tx_hash: hex64,
        },
      },
      ExplorerEvent: {
        type: 'object',
        required: ['id', 'block_height', 'batch_index', 'market_id', 'market_name', 'applied_orders', 'batch_hash'],
        properties: {
          id,
          block_height: int,
          batch_index: int,
          market_id: uuid,
          market_name: { type: 'string' },
          applied_orders: int,
          batch_hash: hex64,
          tick_number: int,
          order_count: int,
          cancel_count: int,
          trade_count: int,
        },
      },
      BlockDetail: {
        type: 'object',
        required: ['block', 'transactions', 'events', 'markets'],
        properties: {
          block: ref('BlockRecord'),
          transactions: { type: 'array', items: ref('ExplorerTransaction') },
          events: { type: 'array', items: ref('ExplorerEvent') },
          markets: {
            type: 'array',
            items: ref('MarketCreation'),
            description: 'extension: the market creations of the block (not transactions)',
          },
        },
      },
      OpenOrders: {
        type: 'object',
        required: ['owner', 'total', 'offset', 'orders'],
        properties: {
          owner: base58,
          total: int,
          offset: int,
          orders: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                market_id: uuid,
                market_name: { type: 'string' },
                order_id: u64,
                side: { type: 'string', enum: ['Buy', 'Sell'] },
                price: u64,
                quantity: u64,
                remaining: u64,
                expiry: u64,
                continuum_sequence: u64,
                tick_number: int,
                transaction_id: { ...id, nullable: true },
                slot: int,
              },
            },
          },
        },
      },
    },
  },
};
