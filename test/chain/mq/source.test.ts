/**
 * The producer's reading of the stored chain (src/chain/mq/source.ts): fields picked out of
 * the stored JSON without parsing it (also when a market name contains key-like text), the
 * message bytes equal to the stored record, the block message equal whether built from
 * stored texts or from the objects, and its smaller forms when the server's max_payload
 * is too small for the full one.
 */
import { expect } from 'chai';
import type { BlockDetail, ExplorerTransaction } from '../../../src/chain/core/index.js';
import { encodeJson } from '../../../src/wire/index.js';
import { chainSource, mqBlock, mqTx, storedTx, type StoredChain } from '../../../src/chain/mq/index.js';

const MARKET = '6f1c0e2a-1b2c-4d3e-8f40-5a6b7c8d9e01';

function tx(i: number, height = 3, name = 'SEVEN/EIGHT'): ExplorerTransaction {
  return {
    id: `${height.toString(16).padStart(16, '0')}-0001-${i.toString(16).padStart(4, '0')}`,
    block_height: height,
    batch_index: 1,
    kind: 'order',
    market_id: MARKET,
    market_name: name,
    market_kind: 'Spot',
    owner: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi',
    side: 'Buy',
    price: 18_446_744_073_709_551_615n, // u64 max: exact in the JSON
    quantity: 5n,
    order_id: 7n,
    timestamp_ms: 1_795_420_000_000,
    continuum_sequence: (9_000_000n << 32n) | BigInt(i),
    signature: 'ab'.repeat(64),
    tick_number: 9_000_000,
    sequence_number: 40 + i,
    tx_hash: 'cd'.repeat(32),
  };
}

function detail(n: number): BlockDetail {
  const txs = Array.from({ length: n }, (_, i) => tx(i));
  return {
    block: {
      height: 3,
      state_root: Array.from({ length: 32 }, (_, i) => i),
      applied_batches: 9,
      applied_orders: 1,
      produced_at: 1_795_420_000,
      total_orders: n,
      total_cancels: 0,
      batch_summaries: [
        {
          index: 0,
          tick_number: 9_000_000,
          order_count: n,
          cancel_count: 0,
          continuum_sequences: txs.map((t) => t.continuum_sequence),
          batch_hash: 'ef'.repeat(32),
          market_count: 0,
        },
      ],
      transaction_ids: txs.map((t) => t.id),
      event_ids: ['0000000000000003-0000-0000'],
      total_markets: 0,
      first_tick: 9_000_000,
      last_tick: 9_000_000,
      trade_count: 0,
      last_tick_output_hash: '12'.repeat(32),
    },
    transactions: txs,
    events: [
      {
        id: '0000000000000003-0000-0000',
        block_height: 3,
        batch_index: 0,
        market_id: MARKET,
        market_name: 'SEVEN/EIGHT',
        applied_orders: 1,
        batch_hash: 'ef'.repeat(32),
        tick_number: 9_000_000,
        order_count: n,
        cancel_count: 0,
        trade_count: 0,
      },
    ],
    markets: [],
  };
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('chain/mq: reading the stored chain', () => {
  it('picks id, height, market and continuum_sequence out of the stored JSON, bytes unchanged', () => {
    for (const t of [
      tx(0),
      tx(65535),
      tx(2, 1, 'x","market_id":"evil","continuum_sequence":1,"id":"0000000000000000-0000-0000'),
    ]) {
      const json = encodeJson(t);
      const m = storedTx(json);
      expect(m).to.deep.include({
        id: t.id,
        height: t.block_height,
        marketId: MARKET,
        continuumSequence: t.continuum_sequence,
      });
      expect(decode(m.body)).to.equal(json);
      expect(mqTx(t).body).to.deep.equal(m.body);
    }
    expect(() => storedTx('{"id":"x"}')).to.throw(/lacks id, block_height, market_id or continuum_sequence/);
  });

  it('builds the same block message from stored texts as from the objects, with the last sequence', async () => {
    const d = detail(4);
    const stored: StoredChain = {
      latestHeight: () => 3,
      lastStoredSequence: () => d.transactions.at(-1)!.continuum_sequence,
      readTransactionJsons: async (from, limit) =>
        d.transactions
          .filter((t) => t.continuum_sequence >= from)
          .slice(0, limit)
          .map((t) => encodeJson(t)),
      readBlockJsons: async (h) =>
        h === 3 ? { block: encodeJson(d.block), events: d.events.map((e) => encodeJson(e)), markets: [] } : undefined,
      onTransactions: () => () => {},
      onBlock: () => () => {},
    };
    const source = chainSource(stored);
    const block = (await source.block(3))!;
    expect(block.body(1 << 20)).to.deep.equal(mqBlock(d).body(1 << 20));
    expect(JSON.parse(decode(block.body(1 << 20)))).to.have.keys('block', 'events', 'markets');
    expect(block.stateRoot).to.equal(Buffer.from(d.block.state_root).toString('hex'));
    expect(block.lastContinuumSequence).to.equal(d.transactions.at(-1)!.continuum_sequence);
    expect(await source.block(4)).to.equal(undefined);

    const after = await source.transactionsAfter(d.transactions[1]!.continuum_sequence, 10);
    expect(after.map((t) => t.id)).to.deep.equal(d.transactions.slice(2).map((t) => t.id));
    expect(await source.transactionsAfter(d.transactions[3]!.continuum_sequence, 10)).to.deep.equal([]);
    expect(await source.transactionsAfter(0n, 0)).to.deep.equal([]);
  });

  it('shrinks a block message that does not fit the server max payload, saying so', () => {
    const block = mqBlock(detail(3000));
    const full = block.body(1 << 22);
    expect(full.length).to.be.greaterThan(100_000);
    const lean = JSON.parse(decode(block.body(100_000))) as {
      truncated: boolean;
      block: {
        transaction_ids: unknown[];
        batch_summaries: { continuum_sequences: unknown[] }[];
        state_root: number[];
      };
      events: unknown[];
    };
    expect(lean.truncated).to.equal(true);
    expect(lean.block.transaction_ids).to.deep.equal([]);
    expect(lean.block.batch_summaries[0]!.continuum_sequences).to.deep.equal([]);
    expect(lean.block.state_root).to.have.length(32);
    const bare = JSON.parse(decode(block.body(300))) as { block: { batch_summaries: unknown[]; height: number } };
    expect(bare.block.batch_summaries).to.deep.equal([]);
    expect(bare.block.height).to.equal(3);
  });
});
