/**
 * The durable tick store on a real LevelDB: ticks, transactions, index entries and head
 * written in one batch and read back exactly; range and tail reads; one transaction read
 * alone; a tick's bytes close to its content; index lookups that keep colliding 8-hex
 * hashes apart (forged hashes sharing their first 4 bytes).
 */
import { expect } from 'chai';
import { DiskTickStore, pad16 } from '../../src/store/disk-store.js';
import { encodeStoredTx } from '../../src/store/stored-tick.js';
import type { OrderedTransaction } from '../../src/core/types.js';
import { makeChain, makeTick } from './fixtures.js';
import { tempDb, type TempDb } from './db.js';

/** A transaction's tx-record body, as intake writes it (the `txs` value after its 16-byte prefix). */
const bodyOf = (o: OrderedTransaction): Uint8Array => encodeStoredTx(0, o).subarray(16);

describe('store/disk-store', () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('starts empty', async () => {
    const disk = new DiskTickStore(t.db);
    expect(await disk.loadHead()).to.deep.equal({ tick: 0, lastSequence: 0, proven: 0 });
    expect(await disk.readTick(1)).to.equal(undefined);
    expect(await disk.lookup('00000000')).to.deep.equal([]);
  });

  it('lastSequenceAt: the last sequence number up to a tick, scanning back over empty ticks, stopping at a known answer', async () => {
    const disk = new DiskTickStore(t.db);
    // Transactions only in ticks 2 (sequences 1-2) and 5 (3-5); the rest are empty.
    const chain = makeChain(9, (n) => (n === 2 ? 2 : n === 5 ? 3 : 0));
    await disk.writeTicks(chain, undefined, { tick: 9, lastSequence: 5 });
    expect(await disk.lastSequenceAt(1)).to.equal(0);
    expect(await disk.lastSequenceAt(4)).to.equal(2);
    expect(await disk.lastSequenceAt(9)).to.equal(5);
    // A known answer for tick 6 bounds the scan: nothing busy after it, so its answer stands
    // (a wrong one here shows that the ticks at or before 6 were not read again).
    expect(await disk.lastSequenceAt(9, { tick: 6, lastSequence: 77 })).to.equal(77);
    expect(await disk.lastSequenceAt(9, { tick: 4, lastSequence: 2 })).to.equal(5);
  });

  it('writes and reads ticks, ranges and the head', async () => {
    const disk = new DiskTickStore(t.db);
    const chain = makeChain(30, (n) => n % 3);
    // The first ten with their transactions' bodies as intake writes them, the rest encoded here.
    await disk.writeTicks(
      chain.slice(0, 10),
      chain.slice(0, 10).map((t) => t.transactions.map((o) => bodyOf(o))),
      { tick: 10, lastSequence: 9 },
    );
    await disk.writeTicks(chain.slice(10), undefined, { tick: 30, lastSequence: 30 });
    const reopened = new DiskTickStore(await t.reopen());
    expect(await reopened.loadHead()).to.deep.equal({ tick: 30, lastSequence: 30, proven: 30 });
    for (const tick of chain) expect(await reopened.readTick(tick.tickNumber)).to.deep.equal(tick);
    const range = [];
    for await (const x of reopened.readRange(8, 12)) range.push(x.tickNumber);
    expect(range).to.deep.equal([8, 9, 10, 11, 12]);
    expect((await reopened.readLast(3)).map((x) => x.tickNumber)).to.deep.equal([28, 29, 30]);
    // Stops once the ticks read hold enough transactions (29 has 2, 28 has 1).
    expect((await reopened.readLast(10, 3)).map((x) => x.tickNumber)).to.deep.equal([28, 29, 30]);
    expect((await reopened.readLast(10, 2)).map((x) => x.tickNumber)).to.deep.equal([29, 30]);
    // One transaction is read alone, by its sequence number.
    const o = chain[4]!.transactions[0]!;
    expect(await reopened.readTransaction(o.sequenceNumber)).to.deep.equal({ tickNumber: 5, transaction: o });
    expect(await reopened.readTransaction(10_000)).to.equal(undefined);
  });

  it('stores a tick in about its content: a 592-byte record, its proof (unless trivial) and each transaction apart', async () => {
    const disk = new DiskTickStore(t.db);
    const chain = makeChain(3, (n) => (n === 3 ? 2 : 0));
    chain[1]!.vdfProof.proof = new Uint8Array(256).fill(9);
    await disk.writeTicks(chain, undefined, { tick: 3, lastSequence: 2 });
    const sizes = await Promise.all(
      [1, 2, 3].map(async (n) => (await disk.ticks.get(String(n).padStart(16, '0')))!.length),
    );
    expect(sizes).to.deep.equal([592 + 256, 592, 592]); // tick 1 carries the genesis output
    const proofs = await disk.proofs.iterator().all();
    expect(proofs.map(([k, v]) => [Number(k), v.length])).to.deep.equal([[2, 256]]);
    const txs = await disk.txs.values().all();
    expect(txs).to.have.length(2);
    // A tick stored before its proof reads with the pending (all-zero) proof until the proof is written.
    const late = makeChain(4, () => 0)[3]!;
    late.vdfProof.proof = new Uint8Array(256);
    late.previousOutput = chain[2]!.vdfProof.output;
    await disk.writeTicks([late], undefined, { tick: 4, lastSequence: 2 });
    expect((await disk.readTick(4))!.vdfProof.proof.every((b) => b === 0)).to.equal(true);
    const proof = new Uint8Array(256).fill(5);
    await disk.writeTicks([], undefined, { tick: 4, lastSequence: 2 }, [disk.proofOp(4, proof)]);
    expect((await disk.readTick(4))!.vdfProof.proof).to.deep.equal(proof);
  });

  it('derives the head from the stored ticks when the head record is missing', async () => {
    const disk = new DiskTickStore(t.db);
    const chain = makeChain(6, (n) => (n <= 4 ? 2 : 0));
    await disk.writeTicks(chain, undefined, { tick: 6, lastSequence: 8 });
    await disk.meta.del('head');
    expect(await disk.loadHead()).to.deep.equal({ tick: 6, lastSequence: 8, proven: 6 });
  });

  it('indexes by 8-hex hash and keeps colliding transactions apart', async () => {
    const disk = new DiskTickStore(t.db);
    const a = makeTick(1, 2, 1);
    const b = makeTick(2, 1, 3);
    // Forge: tx 2 of tick 1 and tx 1 of tick 2 share the first 4 bytes of tx 1's hash.
    const prefix = a.transactions[0]!.txHash.slice(0, 4);
    a.transactions[1]!.txHash.set(prefix, 0);
    b.transactions[0]!.txHash.set(prefix, 0);
    await disk.writeTicks([a, b], undefined, { tick: 2, lastSequence: 3 });
    const h8 = Buffer.from(prefix).toString('hex');
    const rows = await disk.lookup(h8);
    expect(rows).to.deep.equal([
      { sequence: 1, tick: 1 },
      { sequence: 2, tick: 1 },
      { sequence: 3, tick: 2 },
    ]);
    // A neighbouring prefix finds nothing.
    const other = (parseInt(h8, 16) ^ 1).toString(16).padStart(8, '0');
    expect(await disk.lookup(other)).to.deep.equal([]);
    expect(pad16(42)).to.equal('0000000000000042');
  });
});
