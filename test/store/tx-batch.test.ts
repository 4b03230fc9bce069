/**
 * The transactions' operations of a tick commit are built into one buffer and keyed on the
 * root database (src/store/tx-batch.ts): every stored byte must be what the sublevel
 * operations wrote before (docs/storage.md). Two real LevelDB stores take the same ticks;
 * in the reference store the `txs` and `txindex` entries are then rewritten by the former
 * code path, spelled out here (sublevel puts, pad16 and shortHash strings, the value laid
 * out by hand), and the two stores are compared key by key, byte for byte, over the whole
 * database.
 */
import { expect } from 'chai';
import type { Database } from '../../src/db/index.js';
import type { OrderedTransaction, Tick } from '../../src/core/types.js';
import { shortHash } from '../../src/core/tx-hash.js';
import { DiskTickStore, pad16 } from '../../src/store/disk-store.js';
import { encodeStoredTx } from '../../src/store/stored-tick.js';
import { makeTick } from './fixtures.js';
import { tempDb, type TempDb } from './db.js';

/** A transaction's body as intake writes it (the `txs` value after its 16-byte prefix). */
const bodyOf = (o: OrderedTransaction): Uint8Array => encodeStoredTx(0, o).subarray(16);

/** The `txs` value laid out by hand: f64 tick | f64 ingestion timestamp | body (little-endian). */
function referenceValue(tickNumber: number, o: OrderedTransaction): Uint8Array {
  const body = bodyOf(o);
  const v = new Uint8Array(16 + body.length);
  const view = new DataView(v.buffer);
  view.setFloat64(0, tickNumber, true);
  view.setFloat64(8, o.ingestionTimestamp, true);
  v.set(body, 16);
  return v;
}

/** The former code path: two sublevel puts per transaction with string keys. */
async function writeReference(db: Database, ticks: Tick[]): Promise<void> {
  const txs = db.sublevel<string, Uint8Array>('txs', { keyEncoding: 'utf8', valueEncoding: 'view' });
  const index = db.sublevel<string, string>('txindex', { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  await txs.clear();
  await index.clear();
  for (const t of ticks) {
    for (const o of t.transactions) {
      const seq = pad16(o.sequenceNumber);
      await txs.put(seq, referenceValue(t.tickNumber, o));
      await index.put(`${shortHash(o.txHash)}:${seq}`, String(t.tickNumber));
    }
  }
}

async function rawEntries(db: Database): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for await (const [k, v] of db.iterator<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' })) {
    out.push([Buffer.from(k).toString('hex'), Buffer.from(v).toString('hex')]);
  }
  return out;
}

describe('store/tx-batch', () => {
  let a: TempDb;
  let b: TempDb;
  beforeEach(async () => {
    a = await tempDb();
    b = await tempDb();
  });
  afterEach(async () => {
    await a.cleanup();
    await b.cleanup();
  });

  it('stores every byte the sublevel operations stored: same keys, same values, nothing more', async () => {
    // Sequence numbers across the 8-digit halves of a key, at 15 digits and at the
    // largest safe integers; tick numbers of 1 to 5 digits; ticks without transactions.
    const ticks: Tick[] = [
      makeTick(1, 3, 1),
      makeTick(2, 0, 4),
      makeTick(9, 4, 99_999_998),
      makeTick(10, 2, 100_000_002),
      makeTick(12_345, 3, 123_456_789_012_340),
      makeTick(12_346, 5, Number.MAX_SAFE_INTEGER - 4),
    ];
    // Bodies as intake writes them for some ticks; none for the others (a follower's ticks).
    const bodies = ticks.map((t, i) => (i % 2 === 0 ? t.transactions.map(bodyOf) : undefined));
    const head = { tick: 12_346, lastSequence: Number.MAX_SAFE_INTEGER };
    await new DiskTickStore(a.db).writeTicks(ticks, bodies, head);
    await new DiskTickStore(b.db).writeTicks(ticks, undefined, head);
    await writeReference(b.db, ticks);

    const got = await rawEntries(a.db);
    const want = await rawEntries(b.db);
    const count = ticks.reduce((n, t) => n + t.transactions.length, 0);
    expect(got.length).to.equal(want.length);
    expect(got.filter(([k]) => Buffer.from(k, 'hex').toString('latin1').startsWith('!txs!')).length).to.equal(count);
    expect(got).to.deep.equal(want);
  });

  it('reads back what it wrote: transactions by sequence number and index lookups', async () => {
    const ticks = [makeTick(7, 3, 99_999_999)];
    const disk = new DiskTickStore(a.db);
    await disk.writeTicks(ticks, [ticks[0]!.transactions.map(bodyOf)], { tick: 7, lastSequence: 100_000_001 });
    for (const o of ticks[0]!.transactions) {
      const read = await disk.readTransaction(o.sequenceNumber);
      expect(read?.tickNumber).to.equal(7);
      expect(read?.transaction).to.deep.equal(o);
      expect(await disk.lookup(shortHash(o.txHash))).to.deep.include({ sequence: o.sequenceNumber, tick: 7 });
    }
  });
});
