/**
 * Tick binding v2 (src/vdf/binding.ts, docs/vdf.md "What a tick's VDF input binds") on
 * ticks of the real sequencer (clock, batcher, LevelDB): a tick served as REST JSON with
 * its transactions verifies, and tampering with ANY served field (timestamp, first
 * sequence, count, batch hash, ingestion digest, an ingestion timestamp, a sequence
 * number, a transaction's bytes) makes it fail, with a message naming what differs where
 * the transactions tell.
 */
import { expect } from 'chai';
import { restTick } from '../../src/vdf/index.js';
import { encodeJson as toJson } from '../../src/wire/index.js';
import { parseRestTick, referenceVdfEngine, type VdfTickInput } from '../../src/vdf/index.js';
import { startHarness, tx, waitFor, type Harness } from '../sequencer/harness.js';

type Json = Record<string, unknown> & { tick: Record<string, unknown> & { transactions: Record<string, unknown>[] } };

describe('vdf: tick binding on real ticks (REST JSON with transactions)', function () {
  this.timeout(60_000);
  const reference = referenceVdfEngine();
  let h: Harness;
  let served: Json;

  before(async () => {
    h = await startHarness();
    const results = await h.seq.submitBatch([tx(), tx(), tx()]);
    await waitFor(() => h.seq.status().totalTransactions === 3, 'three transactions ticked');
    const { tickNumber } = (await h.seq.findTransactions((results[0] as { txHash: string }).txHash))[0]!;
    const tick = (await h.seq.getTick(tickNumber))!;
    served = JSON.parse(toJson(restTick(tick, true))) as Json;
  });
  after(() => h.close());

  const verdict = (json: unknown): { ok: boolean; error?: string } => {
    let input: VdfTickInput;
    try {
      input = parseRestTick(json);
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
    return { ok: reference.verify(input) };
  };
  const withTick = (over: Record<string, unknown>) => ({ ...served, tick: { ...served.tick, ...over } });
  const withTx = (i: number, over: Record<string, unknown>) =>
    withTick({ transactions: served.tick.transactions.map((o, k) => (k === i ? { ...o, ...over } : o)) });
  const withoutTxs = (): Record<string, unknown> => {
    const { transactions: _omit, ...rest } = served.tick;
    return rest;
  };

  it('the served tick verifies, with and without its transactions', () => {
    expect(served.tick.transactions.length).to.be.at.least(1);
    expect(verdict(served)).to.deep.equal({ ok: true });
    expect(verdict({ ...served, tick: withoutTxs() })).to.deep.equal({ ok: true });
  });

  it('a tampered bound field fails the proof (no transactions needed)', () => {
    const t = served.tick;
    const tampered: Record<string, unknown>[] = [
      { timestamp: (t.timestamp as number) + 1 },
      { first_sequence: (t.first_sequence as number) + 1 },
      { transaction_count: (t.transaction_count as number) + 1 },
      { transaction_batch_hash: 'ab'.repeat(32) },
      { ingestion_digest: 'cd'.repeat(32) },
    ];
    for (const over of tampered)
      expect(verdict({ ...served, tick: { ...withoutTxs(), ...over } }), JSON.stringify(over)).to.deep.equal({
        ok: false,
      });
  });

  it('included transactions that disagree with the tick are named', () => {
    const first = served.tick.transactions[0]!;
    expect(verdict(withTx(0, { ingestion_timestamp: (first.ingestion_timestamp as number) - 1 })).error).to.match(
      /ingestion_digest does not match/,
    );
    expect(verdict(withTx(0, { ingestion_timestamp: (served.tick.timestamp as number) + 1 })).error).to.match(
      /after the tick's timestamp/,
    );
    expect(verdict(withTx(0, { sequence_number: (first.sequence_number as number) + 7 })).error).to.match(
      /has sequence/,
    );
    expect(verdict(withTx(0, { payload: 'ff' })).error).to.match(/do not hash to its tx_hash/);
    expect(verdict(withTick({ transactions: served.tick.transactions.slice(1) })).error).to.match(
      /transaction_count is/,
    );
    const other = 'ee'.repeat(32);
    expect(verdict(withTick({ transaction_batch_hash: other })).error).to.match(
      /transaction_batch_hash is not the Merkle root/,
    );
  });
});
