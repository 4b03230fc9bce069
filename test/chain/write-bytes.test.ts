/**
 * The chain's per-tick write puts each record on the node's database with its sublevel's
 * prefix in the key (src/db prefixed-put.ts): every stored byte must be what the former
 * sublevel operations stored (docs/storage.md "Chain node"). The same ticks (three markets,
 * one named outside ASCII; orders, trades, cancels, a mass cancel, expiries, refusals;
 * blocks cut; state snapshots; the owner log's events and counts; the order proof records)
 * go through the node's chain runtime into two real LevelDB stores. In the reference store
 * each batch is rewritten on its way to LevelDB into the former operations, spelled out
 * here: `{ type: 'put', sublevel, key, value }` on the keyspace's sublevel with the value
 * encoding it had (text or binary). The two stores are then compared key by key, byte for
 * byte, over the whole database, and every stored key is read back through its sublevel.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainStore, OrderRecords } from '../../src/chain/core/index.js';
import { openChainRuntime } from '../../src/chain/runtime.js';
import { OwnerLog } from '../../src/channels/index.js';
import type { Tick } from '../../src/core/types.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { TickApplier } from '../../src/dex/applier.js';
import { NodeChannels } from '../../src/node/channels.js';
import {
  cancelAllTx,
  checkSignature,
  keyOf,
  makeTicks,
  marketTx,
  orderTx,
  recordedTicks,
  tickOf,
} from './support/flow.js';

/** The chain's keyspaces and the value encoding each sublevel had in the former operations. */
const FORMER: Record<string, 'utf8' | 'view'> = {
  'chain-blk': 'utf8',
  'chain-tx': 'utf8',
  'chain-seq': 'utf8',
  'chain-mkt': 'utf8',
  'chain-ev': 'utf8',
  'chain-evn': 'utf8',
  'chain-evm': 'utf8',
  'chain-meta': 'view',
  'chain-own': 'utf8',
  'chain-ownc': 'utf8',
  'chain-oid': 'view',
  'chain-oend': 'view',
  'chain-uid': 'view',
  'chain-unode': 'view',
};

type Op = { type: string; key: string; value: string | Uint8Array; valueEncoding?: string; sublevel?: unknown };
type BatchFn = (this: Database, operations: object[]) => Promise<void>;

/** The flow: makeTicks' two markets, then a market with a name outside ASCII, orders in it and a mass cancel. */
function flowTicks(): Tick[] {
  const ticks = makeTicks(420, 11);
  const t0 = ticks[ticks.length - 1]!.timestamp;
  const [a, b] = [keyOf(1), keyOf(2)];
  ticks.push(tickOf(421, t0 + 1000, [marketTx(31, 32, 'ÉTÉ/Ω 市場 😀')]));
  ticks.push(
    tickOf(422, t0 + 2000, [
      orderTx(a, 7001, 'Sell', 50, 4, 31, 32),
      orderTx(a, 7002, 'Sell', 51, 4, 31, 32),
      orderTx(b, 7003, 'Buy', 50, 2, 31, 32),
    ]),
  );
  ticks.push(tickOf(423, t0 + 3000, [cancelAllTx(a, 1, 31, 32)]));
  for (let t = 424; t <= 640; t++) ticks.push(tickOf(t, t0 + (t - 421) * 1000, []));
  return ticks;
}

/** The ticks through the node's chain runtime (owner log, order records, snapshots) into `db`, then closed. */
async function runChain(db: Database, ticks: Tick[]): Promise<void> {
  const rt = await openChainRuntime({
    db,
    blockMs: 50,
    snapshotTxs: 40,
    snapshotTicks: 150,
    parts: [new NodeChannels(db)],
  });
  const source = recordedTicks(ticks);
  const applier = new TickApplier(
    source,
    rt.book.engine,
    { verifyMany: async (items) => items.map((c) => checkSignature(c.publicKey, c.message, c.signature)) },
    { throttle: rt.book.throttle, rootBefore: rt.book.rootBefore },
  );
  for (const c of rt.book.consumers) applier.onApplied(c);
  await applier.start();
  await rt.ready();
  await applier.stop();
  await rt.close();
}

/** Every raw key (latin1: the prefixes and keys are ASCII or UTF-8) and value (hex) of the database. */
async function rawEntries(db: Database): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for await (const [k, v] of db.iterator<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }))
    out.push([Buffer.from(k).toString('latin1'), Buffer.from(v).toString('hex')]);
  return out;
}

const nameOf = (rawKey: string): string => rawKey.slice(1, rawKey.indexOf('!', 1));

describe('chain: the per-tick write stores the bytes of the former sublevel operations', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const dbs: Database[] = [];
  async function fresh(): Promise<Database> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-chain-bytes-'));
    dirs.push(dir);
    const db = await openDatabase(dir);
    dbs.push(db);
    return db;
  }
  after(async () => {
    for (const db of dbs) if (db.status === 'open') await db.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('same keys, same values, nothing more; every record reads back through its sublevel', async () => {
    const ticks = flowTicks();
    const a = await fresh();
    const b = await fresh();

    // The reference: each put of a batch rewritten into the former sublevel operation.
    const former = Object.fromEntries(
      Object.entries(FORMER).map(([name, valueEncoding]) => [
        name,
        b.sublevel(name, { keyEncoding: 'utf8', valueEncoding }),
      ]),
    );
    const write = b.batch as unknown as BatchFn;
    const seen = new Map<string, number>();
    let snapshots = 0;
    (b as { batch: unknown }).batch = function (this: Database, operations: Op[]) {
      const rewritten = operations.map((op) => {
        expect(op.type).to.equal('put');
        expect(op.sublevel, 'a put on the node database, not a sublevel operation').to.equal(undefined);
        const name = nameOf(op.key);
        expect(op.key.startsWith(`!${name}!`), op.key).to.equal(true);
        expect(FORMER, `the keyspace of ${op.key}`).to.have.property(name);
        // Each keyspace keeps the value encoding its sublevel gave it.
        expect(op.valueEncoding, op.key).to.equal(FORMER[name]);
        expect(typeof op.value === 'string', op.key).to.equal(FORMER[name] === 'utf8');
        seen.set(name, (seen.get(name) ?? 0) + 1);
        if (op.key === '!chain-meta!snapshot') snapshots++;
        return { type: 'put', sublevel: former[name], key: op.key.slice(name.length + 2), value: op.value };
      });
      return write.call(this, rewritten);
    };

    await runChain(a, ticks);
    await runChain(b, ticks);

    // The flow reached every keyspace of the per-tick write.
    expect([...seen.keys()].sort()).to.deep.equal(Object.keys(FORMER).sort());
    expect(snapshots, 'state snapshots in the per-tick write and at close').to.be.at.least(3);
    const got = await rawEntries(a);
    const want = await rawEntries(b);
    expect(got.length).to.equal(want.length);
    expect(got).to.deep.equal(want);

    // Every stored chain key reads back through its sublevel as the bytes stored.
    const readers = Object.fromEntries(
      Object.keys(FORMER).map((name) => [
        name,
        a.sublevel<string, Uint8Array>(name, { keyEncoding: 'utf8', valueEncoding: 'view' }),
      ]),
    );
    let chainKeys = 0;
    for (const [raw, hex] of got) {
      const name = nameOf(raw);
      if (!(name in FORMER)) continue;
      chainKeys++;
      const key = Buffer.from(raw.slice(name.length + 2), 'latin1').toString('utf8');
      const value = await readers[name]!.get(key);
      expect(value && Buffer.from(value).toString('hex'), raw).to.equal(hex);
    }
    expect(chainKeys).to.be.above(1000);

    // And the stores' own reads find the records.
    const store = new ChainStore(a);
    const head = await store.loadHead();
    expect(head?.tick).to.be.within(423, ticks.length); // the last tick with records to write
    const height = head!.height;
    expect(height).to.be.at.least(5);
    const detail = JSON.parse((await store.blockDetailJson(height - 4))!) as { block: { height: number } };
    expect(detail.block.height).to.equal(height - 4);
    expect((await store.loadSnapshot())?.tick).to.be.within(423, ticks.length);
    const markets = (await store.markets.values().all()).map(
      (j) => (JSON.parse(j) as { market_name: string }).market_name,
    );
    expect(markets).to.include('ÉTÉ/Ω 市場 😀');
    const owners = new OwnerLog(a);
    await owners.load(head!.tick);
    const [someOwner, count] = (await owners.counts.iterator({ limit: 1 }).all())[0]!;
    expect(await owners.events.keys({ gte: `${someOwner}:`, lt: `${someOwner};` }).all()).to.have.length(Number(count));
    const orders = new OrderRecords(a);
    expect((await orders.placement(keyOf(2).publicKey, 7003n))?.slot).to.equal(-1);
    expect((await orders.ending(keyOf(2).publicKey, 7003n))?.end).to.equal('filled_on_arrival');
    expect((await orders.ending(keyOf(1).publicKey, 7002n))?.end).to.equal('cancelled');
  });
});
