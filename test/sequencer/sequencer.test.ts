/**
 * The sequencer end to end: real LevelDB, real clock worker, real pool. Sequencing and
 * lookups, the batch hash, chain verification with the reference engine, validation
 * through submit/submitBatch, replay rules, the queue bound, shutdown, restart resume,
 * write-ahead recovery, reads of ticks evicted from memory, 8-hex collisions, status
 * and listeners.
 */
import { expect } from 'chai';
import { vdfInputOfTick } from '../../src/vdf/binding.js';
import { merkleRoot } from '../../src/crypto/merkle.js';
import { SubmitError } from '../../src/sequencer/interface.js';
import { MAX_BATCH_TRANSACTIONS } from '../../src/sequencer/limits.js';
import { shortHash, transactionHash, transactionBytes } from '../../src/core/tx-hash.js';
import type { SubmitResult, Tick, Transaction } from '../../src/core/types.js';
import { encodeArchiveRecord } from '../../src/store/archive.js';
import { WriteAheadLog } from '../../src/store/wal.js';
import { makeEntry } from '../store/fixtures.js';
import { existsSync } from 'node:fs';
import { GENESIS_OUTPUT, referenceVdfEngine, wasmPath } from '../../src/vdf/index.js';
import { TickSequencer } from '../../src/sequencer/sequencer.js';
import { startHarness, tx, waitFor, type Harness } from './harness.js';

const reference = referenceVdfEngine();

async function allTicks(h: Harness): Promise<Tick[]> {
  const out: Tick[] = [];
  for await (const t of h.seq.readTicks(1, h.seq.status().currentTick)) out.push(t);
  return out;
}

function ok(r: SubmitResult | SubmitError): SubmitResult {
  if (r instanceof SubmitError) throw r;
  return r;
}

async function expectCode(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(SubmitError);
    expect((e as SubmitError).code).to.equal(code);
    if (message) expect((e as SubmitError).message).to.match(message);
    return;
  }
  expect.fail(`expected ${code}`);
}

describe('sequencer (end to end)', function () {
  this.timeout(60_000);
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('sequences, ticks and finds transactions; batch hash and chain verify', async () => {
    h = await startHarness();
    // The clock runs the WASM engine whenever it is built.
    expect(h.seq.engineName()).to.equal(existsSync(wasmPath()) ? 'wasm' : 'reference');
    const txs: Transaction[] = Array.from({ length: 300 }, () => tx());
    const single = await h.seq.submit(txs[0]!);
    expect(single.sequenceNumber).to.equal(1);
    expect(single.txHash).to.equal(shortHash(transactionHash(txs[0]!)));
    expect(single.expectedTick).to.be.at.least(1);
    const batch = (await h.seq.submitBatch(txs.slice(1))).map(ok);
    expect(batch.map((r) => r.sequenceNumber)).to.deep.equal(Array.from({ length: 299 }, (_, i) => i + 2));
    await waitFor(() => h.seq.status().totalTransactions === 300, 'all transactions ticked');

    const ticks = await allTicks(h);
    let prev = GENESIS_OUTPUT;
    const seen: number[] = [];
    for (const t of ticks) {
      expect(Buffer.from(t.previousOutput).equals(Buffer.from(prev)), `tick ${t.tickNumber} links`).to.equal(true);
      expect(Buffer.from(t.batchHash).equals(Buffer.from(merkleRoot(t.transactions.map((o) => o.txHash))))).to.equal(
        true,
      );
      const valid = reference.verify(vdfInputOfTick(t));
      expect(valid, `tick ${t.tickNumber} verifies`).to.equal(true);
      for (const o of t.transactions) {
        seen.push(o.sequenceNumber);
        expect(Buffer.from(o.txHash).equals(Buffer.from(transactionHash(o.transaction)))).to.equal(true);
      }
      prev = t.vdfProof.output;
    }
    expect(seen).to.deep.equal(Array.from({ length: 300 }, (_, i) => i + 1));
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.timestamp).to.be.at.least(ticks[i - 1]!.timestamp);

    const found = await h.seq.findTransactions(batch[41]!.txHash.toUpperCase());
    expect(found).to.have.length(1);
    expect(found[0]!.transaction.sequenceNumber).to.equal(43);
    expect(found[0]!.transaction.transaction.txId).to.equal(txs[42]!.txId);
    const inTick = await h.seq.getTick(found[0]!.tickNumber);
    expect(inTick!.transactions.some((o) => o.sequenceNumber === 43)).to.equal(true);
    expect(await h.seq.findTransactions('00000000')).to.satisfy((r: unknown[]) => r.length <= 1);
    await expectCode(h.seq.findTransactions('xyz'), 'INVALID_ARGUMENT');
    expect(await h.seq.getTick(0)).to.equal(undefined);
    expect(await h.seq.getTick(h.seq.status().currentTick + 1000)).to.equal(undefined);
    expect(await h.seq.getTick(1.5)).to.equal(undefined);
  });

  it('validates through submit and keeps failed batch items in place', async () => {
    h = await startHarness();
    await expectCode(h.seq.submit(tx({ txId: '' })), 'INVALID_ARGUMENT', /tx_id/);
    await expectCode(h.seq.submit(tx({ payload: new Uint8Array(65_537) })), 'INVALID_ARGUMENT', /payload/);
    await expectCode(h.seq.submit(tx({ signature: new Uint8Array(257) })), 'INVALID_ARGUMENT', /signature/);
    await expectCode(h.seq.submit(tx({ publicKey: new Uint8Array(257) })), 'INVALID_ARGUMENT', /public_key/);
    await expectCode(h.seq.submit(tx({ nonce: 2n ** 64n })), 'INVALID_ARGUMENT', /nonce/);
    await expectCode(h.seq.submit(tx({ timestamp: -1n })), 'INVALID_ARGUMENT', /timestamp/);
    await expectCode(h.seq.submit(null as unknown as Transaction), 'INVALID_ARGUMENT');
    const tooMany = Array.from({ length: MAX_BATCH_TRANSACTIONS + 1 }, () => tx());
    await expectCode(h.seq.submitBatch(tooMany), 'INVALID_ARGUMENT', /10000/);
    const results = await h.seq.submitBatch([tx(), tx({ txId: 'x'.repeat(129) }), tx()]);
    expect(results[0]).to.not.be.instanceOf(SubmitError);
    expect(results[1]).to.be.instanceOf(SubmitError);
    expect((results[1] as SubmitError).code).to.equal('INVALID_ARGUMENT');
    expect(ok(results[2]!).sequenceNumber).to.equal(ok(results[0]!).sequenceNumber + 1);
    expect(await h.seq.submitBatch([])).to.deep.equal([]);
    // Nothing invalid consumed a sequence number.
    expect(ok(results[0]!).sequenceNumber).to.equal(1);
  });

  it('replay: identical resubmission is idempotent, reused tx_id or (public_key, nonce) is refused', async () => {
    h = await startHarness();
    const pk = new Uint8Array(32).fill(9);
    const a = tx({ publicKey: pk, nonce: 1n });
    const first = await h.seq.submit(a);
    const again = await h.seq.submit({ ...a, payload: a.payload.slice() });
    expect(again).to.deep.equal(first);
    await expectCode(h.seq.submit({ ...a, payload: new Uint8Array([1]) }), 'ALREADY_EXISTS', /tx_id/);
    await expectCode(h.seq.submit(tx({ publicKey: pk, nonce: 1n })), 'ALREADY_EXISTS', /nonce/);
    expect((await h.seq.submit(tx({ publicKey: pk, nonce: 2n }))).sequenceNumber).to.equal(2);
    // Empty public keys never clash on nonce.
    expect((await h.seq.submit(tx({ nonce: 1n }))).sequenceNumber).to.equal(3);
    expect((await h.seq.submit(tx({ nonce: 1n }))).sequenceNumber).to.equal(4);
    // A duplicate inside one batch gets the same answer as the first copy.
    const b = tx();
    const both = (await h.seq.submitBatch([b, b])).map(ok);
    expect(both[1]).to.deep.equal(both[0]);
    await waitFor(() => h.seq.status().totalTransactions === 5, 'ticked');
    // Still idempotent once ticked, and the transaction is in exactly one tick.
    expect(await h.seq.submit(a)).to.deep.equal(first);
    const ticks = await allTicks(h);
    const copies = ticks.flatMap((t) => t.transactions).filter((o) => o.transaction.txId === a.txId);
    expect(copies).to.have.length(1);
  });

  it('refuses beyond queueCapacity with RESOURCE_EXHAUSTED and accepts again once ticked', async () => {
    h = await startHarness({ queueCapacity: 5 });
    const results = await h.seq.submitBatch(Array.from({ length: 8 }, () => tx()));
    expect(results.slice(0, 5).every((r) => !(r instanceof SubmitError))).to.equal(true);
    for (const r of results.slice(5)) {
      expect(r).to.be.instanceOf(SubmitError);
      expect((r as SubmitError).code).to.equal('RESOURCE_EXHAUSTED');
    }
    await waitFor(() => h.seq.status().pendingTransactions === 0, 'queue drained');
    expect((await h.seq.submit(tx())).sequenceNumber).to.equal(6);
  });

  it('stop ticks out everything queued, then answers UNAVAILABLE', async () => {
    h = await startHarness({ idleTickMs: 1000 });
    const results = (await h.seq.submitBatch(Array.from({ length: 2000 }, () => tx()))).map(ok);
    await h.seq.stop();
    expect(h.seq.status().pendingTransactions).to.equal(0);
    expect(h.seq.status().totalTransactions).to.equal(2000);
    const last = results[results.length - 1]!;
    expect((await h.seq.findTransactions(last.txHash)).map((l) => l.transaction.sequenceNumber)).to.include(2000);
    await expectCode(h.seq.submit(tx()), 'UNAVAILABLE');
    await expectCode(h.seq.submitBatch([tx()]), 'UNAVAILABLE');
  });

  it('restart resumes: tick and sequence numbers continue, the chain links, old data stays', async () => {
    h = await startHarness();
    const a = tx();
    const first = (await h.seq.submitBatch([a, tx(), tx()])).map(ok);
    await waitFor(() => h.seq.status().totalTransactions === 3, 'ticked');
    await h.seq.stop();
    const before = h.seq.status().currentTick;
    const lastTick = (await h.seq.getTick(before))!;
    const record1 = encodeArchiveRecord((await h.seq.getTick(1))!);

    const seq2 = await h.restart();
    expect(seq2.status().currentTick).to.equal(before);
    // Replay window rebuilt from the stored ticks: same sequence number and hash, and
    // expected_tick is now the tick the transaction is actually in.
    const replayed = await seq2.submit(a);
    expect(replayed.sequenceNumber).to.equal(first[0]!.sequenceNumber);
    expect(replayed.txHash).to.equal(first[0]!.txHash);
    expect(replayed.expectedTick).to.equal((await seq2.findTransactions(first[0]!.txHash))[0]!.tickNumber);
    const next = await seq2.submit(tx());
    expect(next.sequenceNumber).to.equal(4);
    await waitFor(() => seq2.status().totalTransactions === 4, 'ticked after restart');
    const resumed = (await seq2.getTick(before + 1))!;
    expect(Buffer.from(resumed.previousOutput).equals(Buffer.from(lastTick.vdfProof.output))).to.equal(true);
    expect(reference.verify(vdfInputOfTick(resumed))).to.equal(true);
    expect(encodeArchiveRecord((await seq2.getTick(1))!)).to.equal(record1);
    expect((await seq2.findTransactions(first[1]!.txHash))[0]!.transaction.sequenceNumber).to.equal(2);
  });

  it('queues write-ahead transactions first on start, with their sequence numbers', async () => {
    h = await startHarness();
    await h.seq.submit(tx());
    await waitFor(() => h.seq.status().totalTransactions === 1, 'ticked');
    await h.seq.stop();
    // As if the node died after acknowledging 2 and 3 but before ticking them.
    const wal = new WriteAheadLog(h.db);
    const orphans = [tx(), tx()];
    await Promise.all(orphans.map((t, i) => wal.append(makeEntry(t, 2 + i, 5))));
    const seq2 = await h.restart();
    const fresh = await seq2.submit(tx());
    expect(fresh.sequenceNumber).to.equal(4);
    await waitFor(() => seq2.status().totalTransactions === 4, 'recovered transactions ticked');
    const ticks = await allTicks(h);
    const order = ticks.flatMap((t) => t.transactions.map((o) => o.transaction.txId));
    expect(order.slice(1)).to.deep.equal([orphans[0]!.txId, orphans[1]!.txId, order[3]]);
    expect(await seq2.submit(orphans[0]!)).to.include({ sequenceNumber: 2 });
    // Once ticked, the write-ahead records are gone.
    await seq2.stop();
    expect(await new WriteAheadLog(h.db).sublevel.keys().all()).to.deep.equal([]);
    await h.restart();
  });

  it('rebuilds the replay window on restart from the stored ticks, not only those the memory window keeps', async () => {
    h = await startHarness({ retainTicks: 4, idleTickMs: 5 });
    const early = tx();
    const first = await h.seq.submit(early);
    await waitFor(() => h.seq.status().currentTick >= first.expectedTick + 20, '20 ticks after it');
    const seq2 = await h.restart();
    // Its tick left the 4-tick memory window long ago; the replay window still knows it.
    expect(await seq2.submit(early)).to.include({ sequenceNumber: first.sequenceNumber });
    try {
      await seq2.submit({ ...tx(), txId: early.txId });
      expect.fail('a reused tx_id must be refused after the restart');
    } catch (err) {
      expect((err as SubmitError).code).to.equal('ALREADY_EXISTS');
    }
  });

  it('serves ticks evicted from memory from disk through the same calls', async () => {
    h = await startHarness({ retainTicks: 4, idleTickMs: 5 });
    const seen = new Map<number, string>();
    h.seq.onTick((t) => seen.set(t.tickNumber, encodeArchiveRecord(t)));
    for (let i = 0; i < 10; i++) {
      await h.seq.submit(tx());
      await new Promise((r) => setTimeout(r, 5));
    }
    await waitFor(() => h.seq.status().currentTick >= 30 && h.seq.status().totalTransactions === 10, '30 ticks');
    expect(h.seq.memoryFootprint().ticks).to.be.at.most(5);
    for (const [n, record] of seen)
      expect(encodeArchiveRecord((await h.seq.getTick(n))!), `tick ${n}`).to.equal(record);
    const all = await allTicks(h);
    expect(all.map((t) => t.tickNumber)).to.deep.equal(Array.from({ length: all.length }, (_, i) => i + 1));
    const recent = h.seq.recentTicks(100, 0);
    expect(recent.length).to.be.within(4, 5);
    expect(recent[0]!.tickNumber).to.equal(h.seq.status().currentTick);
    // A transaction in an evicted tick is still found.
    const firstTx = all.flatMap((t) => t.transactions)[0]!;
    const loc = await h.seq.findTransactions(shortHash(firstTx.txHash));
    expect(loc.map((l) => l.transaction.sequenceNumber)).to.include(1);
  });

  it('finds both transactions of an 8-hex collision', async () => {
    // Birthday search over tx_ids for two transactions sharing the first 4 hash bytes.
    const byShort = new Map<string, number>();
    const make = (i: number): Transaction => ({
      txId: `collide-${i}`,
      payload: new Uint8Array(0),
      signature: new Uint8Array(0),
      publicKey: new Uint8Array(0),
      nonce: 0n,
      timestamp: 0n,
    });
    let pair: [number, number] | undefined;
    for (let i = 0; i < 2_000_000 && !pair; i++) {
      const s = shortHash(transactionHash(make(i)));
      const j = byShort.get(s);
      if (j !== undefined) pair = [j, i];
      else byShort.set(s, i);
    }
    expect(pair, 'a collision exists within 2M candidates').to.not.equal(undefined);
    const [x, y] = pair!;
    expect(Buffer.from(transactionBytes(make(x))).equals(Buffer.from(transactionBytes(make(y))))).to.equal(false);
    h = await startHarness();
    const rx = await h.seq.submit(make(x));
    const ry = await h.seq.submit(make(y));
    expect(rx.txHash).to.equal(ry.txHash);
    expect(ry.sequenceNumber).to.not.equal(rx.sequenceNumber);
    await waitFor(() => h.seq.status().totalTransactions === 2, 'ticked');
    const found = await h.seq.findTransactions(rx.txHash);
    expect(found.map((l) => l.transaction.transaction.txId).sort()).to.deep.equal(
      [`collide-${x}`, `collide-${y}`].sort(),
    );
  });

  it('reports status and calls listeners in tick order once durable', async () => {
    const reported: string[] = [];
    h = await startHarness({ idleTickMs: 10, onError: (e) => reported.push(e.message) });
    const order: number[] = [];
    const unsubscribe = h.seq.onTick((t) => order.push(t.tickNumber));
    h.seq.onTick(() => {
      throw new Error('a failing listener must not stop the others');
    });
    const durable: boolean[] = [];
    h.seq.onTick((t) => void h.seq.getTick(t.tickNumber).then((x) => durable.push(x !== undefined)));
    for (let i = 0; i < 20; i++) await h.seq.submitBatch(Array.from({ length: 50 }, () => tx()));
    await waitFor(() => h.seq.status().totalTransactions === 1000, 'ticked');
    const s = h.seq.status();
    expect(s.currentTick).to.be.at.least(1);
    expect(s.pendingTransactions).to.equal(0);
    expect(s.transactionsPerSecond).to.be.greaterThan(0);
    expect(s.startedAt).to.be.greaterThan(1_600_000_000_000_000);
    await waitFor(
      () => order.length > 0 && order[order.length - 1] === h.seq.status().currentTick,
      'listener caught up',
    );
    expect(order).to.deep.equal(Array.from({ length: order.length }, (_, i) => order[0]! + i));
    expect(order[0]).to.equal(1);
    unsubscribe();
    const count = order.length;
    await waitFor(() => h.seq.status().currentTick > order[count - 1]! + 2, 'more ticks');
    expect(order.length).to.equal(count);
    expect(durable.every((d) => d)).to.equal(true);
    // The throwing listener was reported, once per tick, and nothing else went wrong.
    expect(reported.length).to.be.greaterThan(0);
    expect(new Set(reported)).to.deep.equal(new Set(['a failing listener must not stop the others']));
  });

  it('query calls shrug off hostile arguments', async () => {
    h = await startHarness();
    await h.seq.submit(tx());
    await waitFor(() => h.seq.status().totalTransactions === 1, 'ticked');
    for (const n of [NaN, -1, 0, Infinity, -Infinity, 1e300, 2 ** 53, 0.5, '1' as unknown as number]) {
      expect(await h.seq.getTick(n), String(n)).to.equal(undefined);
    }
    for (const bad of ['', 'abc', '123456789', 'zzzzzzzz', ' 1234567', null, 42, undefined]) {
      await expectCode(h.seq.findTransactions(bad as string), 'INVALID_ARGUMENT');
    }
    // A limit that is not a positive integer lists nothing; a bad offset counts as 0.
    for (const limit of [NaN, -5, 0, Infinity, 1.5])
      expect(h.seq.recentTicks(limit, 0), String(limit)).to.deep.equal([]);
    expect(h.seq.recentTicks(2, -1)).to.deep.equal(h.seq.recentTicks(2, 0));
    expect(h.seq.recentTicks(2, NaN)).to.deep.equal(h.seq.recentTicks(2, 0));
    expect(h.seq.recentTicks(1e9, 0).length).to.equal(h.seq.status().currentTick);
    const read = async (a: number, b: number): Promise<number[]> => {
      const out: number[] = [];
      for await (const t of h.seq.readTicks(a, b)) out.push(t.tickNumber);
      return out;
    };
    expect(await read(NaN, 5)).to.deep.equal([]);
    expect(await read(5, 2)).to.deep.equal([]);
    expect(await read(-10, 1)).to.deep.equal([1]);
    const before = h.seq.status().currentTick;
    const all = await read(1, 1e15);
    expect(all.length).to.be.within(before, h.seq.status().currentTick);
    expect(all).to.deep.equal(Array.from({ length: all.length }, (_, i) => i + 1));
  });

  it('refuses bad options and answers UNAVAILABLE before start', async () => {
    h = await startHarness();
    const base = { db: h.db, pool: h.pool, retainTicks: 10, vdfIterations: 20, idleTickMs: 10, queueCapacity: 10 };
    for (const bad of [
      { retainTicks: 0 },
      { vdfIterations: 0 },
      { idleTickMs: -1 },
      { queueCapacity: 1.5 },
      { replayWindow: 0 },
    ]) {
      expect(() => new TickSequencer({ ...base, ...bad }), JSON.stringify(bad)).to.throw(RangeError);
    }
    const idle = new TickSequencer(base);
    await expectCode(idle.submit(tx()), 'UNAVAILABLE', /not started/);
    await expectCode(idle.submitBatch([tx()]), 'UNAVAILABLE');
    expect(idle.status()).to.include({
      currentTick: 0,
      totalTransactions: 0,
      pendingTransactions: 0,
      transactionsPerSecond: 0,
    });
    expect(idle.recentTicks(10, 0)).to.deep.equal([]);
    expect(await idle.getTick(1)).to.equal(undefined);
    await idle.stop(); // stopping a never-started sequencer is harmless
    await expectCode(idle.submit(tx()), 'UNAVAILABLE');
  });

  it('heartbeats with long segments get pool proofs that verify', async () => {
    h = await startHarness({ idleTickMs: 40 });
    await waitFor(() => h.seq.status().currentTick >= 3, 'heartbeats');
    const ticks = await allTicks(h);
    const long = ticks.filter((t) => t.vdfProof.iterations > 127);
    expect(long.length).to.be.greaterThan(0);
    for (const t of ticks) {
      expect(t.transactions).to.have.length(0);
      expect(reference.verify(vdfInputOfTick(t)), `tick ${t.tickNumber}`).to.equal(true);
    }
  });
});
