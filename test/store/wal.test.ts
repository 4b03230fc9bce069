/**
 * The write-ahead log on a real LevelDB: group commit (appends that arrive while a write
 * is in flight share one record), exact recovery of transactions not yet ticked in
 * sequence order, deletion only of groups that are fully ticked and written (with the
 * tick commit, or on stop for one written after its tick).
 */
import { expect } from 'chai';
import { DiskTickStore } from '../../src/store/disk-store.js';
import { WriteAheadLog, decodeGroup, encodeGroup, type WalEntry } from '../../src/store/wal.js';
import { makeEntry, makeTx } from './fixtures.js';
import { tempDb, type TempDb } from './db.js';

function entry(seq: number): WalEntry {
  return makeEntry(makeTx(seq), seq, 1_000_000 + seq);
}

describe('store/wal', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('encodes and decodes a group losslessly', () => {
    const entries = [entry(1), entry(2), entry(3)];
    expect(decodeGroup(encodeGroup(entries))).to.deep.equal(entries);
  });

  it('group-commits: appends during an in-flight write share the next record', async () => {
    const wal = new WriteAheadLog(t.db);
    const first = wal.append(entry(1)); // opens group 1, written on the next microtask
    await Promise.resolve();
    const rest = [];
    for (let s = 2; s <= 500; s++) rest.push(wal.append(entry(s))); // group 1 is in flight
    await Promise.all([first, ...rest]);
    const keys = await wal.sublevel.keys().all();
    expect(keys.length).to.be.at.most(3);
    expect(keys[0]).to.equal('0000000000000001');
    const recovered = await new WriteAheadLog(t.db).recover(0);
    expect(recovered.entries.map((e) => e.sequence)).to.deep.equal(Array.from({ length: 500 }, (_, i) => i + 1));
    expect(recovered.maxSequence).to.equal(500);
    expect(recovered.entries[41]).to.deep.equal(entry(42));
  });

  it('recovers only what is not in a durable tick and drops stale groups', async () => {
    const wal = new WriteAheadLog(t.db);
    await Promise.all([wal.append(entry(1)), wal.append(entry(2))]);
    await wal.append(entry(3));
    await Promise.all([wal.append(entry(4)), wal.append(entry(5))]);
    const before = await wal.sublevel.keys().all();
    const again = new WriteAheadLog(t.db);
    const { entries, maxSequence } = await again.recover(3);
    expect(entries.map((e) => e.sequence)).to.deep.equal([4, 5]);
    expect(maxSequence).to.equal(5);
    const after = await again.sublevel.keys().all();
    expect(after.length).to.be.lessThan(before.length);
    // What remains still covers 4 and 5.
    const third = await new WriteAheadLog(t.db).recover(3);
    expect(third.entries.map((e) => e.sequence)).to.deep.equal([4, 5]);
  });

  it('offers deletion only for written groups wholly below the durable sequence', async () => {
    const wal = new WriteAheadLog(t.db);
    await Promise.all([wal.append(entry(1)), wal.append(entry(2))]);
    await wal.append(entry(3));
    expect(wal.takeDeletable(1)).to.deep.equal([]); // group [1,2] not fully ticked
    const ops = wal.takeDeletable(2);
    expect(ops.map((o) => o.key)).to.deep.equal(['0000000000000001']);
    // Apply the deletion inside a tick batch, as the sequencer does.
    const disk = new DiskTickStore(t.db);
    await disk.writeTicks([], [], { tick: 0, lastSequence: 2 }, ops);
    expect((await new WriteAheadLog(t.db).recover(2)).entries.map((e) => e.sequence)).to.deep.equal([3]);
    expect(wal.takeDeletable(10).map((o) => o.key)).to.deep.equal(['0000000000000003']);
  });

  it('a group written after the tick that holds it was committed is deleted by dropTicked (the stop path)', async () => {
    const wal = new WriteAheadLog(t.db);
    const written = wal.append(entry(1));
    await Promise.resolve(); // its write is in flight
    expect(wal.takeDeletable(1)).to.deep.equal([]); // the tick commit that holds 1 cannot take it yet
    await written;
    await wal.dropTicked(1);
    expect(await wal.sublevel.keys().all()).to.deep.equal([]);
    await wal.dropTicked(1); // nothing left: a no-op
    expect(wal.takeDeletable(10)).to.deep.equal([]);
  });

  it('flushed() waits for every pending write', async () => {
    const wal = new WriteAheadLog(t.db);
    let done = 0;
    for (let s = 1; s <= 50; s++) void wal.append(entry(s)).then(() => done++);
    await wal.flushed();
    expect(done).to.equal(50);
  });
});
