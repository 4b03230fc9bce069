/**
 * The orders channel's log on a real LevelDB: per-owner sequences dense from 1, stored
 * message JSON equal to what is published, replay from any sequence, and restart: a log
 * reloaded at the stored head skips the ticks the node replays up to it and numbers later
 * ones exactly as a node that never stopped.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OwnerLog, type ChannelItem } from '../../src/channels/index.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import type { DexTx } from '../../src/dex/engine/index.js';
import { toBase58Key } from '../../src/crypto/base58.js';
import { sha256 } from '../../src/crypto/sha256.js';
import { marketIdOf } from '../../src/core/market-id.js';
import { BASE, QUOTE, cancelTx, marketTx, orderTx, seeded } from '../dex/support/orders.js';
import { writeOps } from './support/harness.js';
import { TickMaker } from './support/ticks.js';

const alice = seeded(1).publicKey;
const bob = seeded(2).publicKey;
const A = toBase58Key(alice);
const B = toBase58Key(bob);

function jsonOf(item: ChannelItem): { seq: number; owner: string; event: string; tick: number } {
  const f = item.frame;
  const off = f[1] === 126 ? 4 : f[1] === 127 ? 10 : 2;
  return JSON.parse(f.subarray(off).toString()) as { seq: number; owner: string; event: string; tick: number };
}

/** A deterministic flow of ticks (the same on every call). */
function flow(): DexTx[][] {
  const ticks: DexTx[][] = [[marketTx()]];
  const market = marketIdOf(BASE, QUOTE, sha256);
  for (let i = 1; i <= 60; i++) {
    ticks.push([orderTx(alice, i, 'Sell', 100 + (i % 3), 2), orderTx(bob, i, 'Buy', 101, 1)]);
    if (i % 7 === 0) ticks.push([cancelTx(alice, i, market), cancelTx(bob, 999, market)]);
  }
  return ticks;
}

describe('channels: the owner log', function () {
  this.timeout(30_000);
  let dir: string;
  let db: Database;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-owner-log-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Run the flow, restarting the log after `stopAfter` ticks (Infinity: never); return every published item per owner. */
  async function runFlow(path: string, stopAfter: number): Promise<Map<string, string[]>> {
    db = await openDatabase(path);
    let log = new OwnerLog(db);
    await log.load(0);
    const seen = new Map<string, string[]>();
    const listen = (l: OwnerLog) =>
      l.onItem((owner, item) => seen.set(owner, [...(seen.get(owner) ?? []), item.frame.toString('latin1')]));
    listen(log);
    const m = new TickMaker();
    const ticks = flow();
    let headTick = 0;
    for (let i = 0; i < ticks.length; i++) {
      const applied = m.apply(ticks[i]!);
      const rec = log.record(applied);
      if (rec.ops.length > 0) await writeOps(db, rec.ops);
      headTick = applied.tick.tickNumber;
      log.publish(rec.items);
      if (i + 1 === stopAfter) {
        // Restart: a new log on the same database; the node replays from an older snapshot
        // (here: from the first tick), so ticks up to the head come again.
        log = new OwnerLog(db);
        await log.load(headTick);
        listen(log);
        const again = new TickMaker();
        for (let k = 0; k <= i; k++) {
          const r = log.record(again.apply(ticks[k]!));
          expect(r.ops, 'a replayed tick up to the stored head writes nothing').to.have.length(0);
        }
      }
    }
    lastLog = log;
    return seen;
  }
  let lastLog: OwnerLog;

  it('numbers each owner densely from 1 and replays any range from the store, byte for byte', async () => {
    const seen = await runFlow(join(dir, 'a'), Infinity);
    for (const owner of [A, B]) {
      const msgs = seen.get(owner)!.map((t) => JSON.parse(t.slice(t.indexOf('{'))) as { seq: number; owner: string });
      expect(msgs.map((x) => x.seq)).to.deep.equal(msgs.map((_, i) => i + 1));
      expect(msgs.every((x) => x.owner === owner)).to.equal(true);
      expect(lastLog.head(owner)).to.equal(msgs.length);
      const replayed: string[] = [];
      for await (const it of lastLog.replay(owner, 3, lastLog.head(owner))) replayed.push(it.frame.toString('latin1'));
      expect(replayed).to.deep.equal(seen.get(owner)!.slice(2));
    }
    const first = [] as Array<ReturnType<typeof jsonOf>>;
    for await (const it of lastLog.replay(B, 1, 3)) first.push(jsonOf(it));
    expect(first.map((x) => x.event)).to.deep.equal(['accepted', 'filled', 'accepted']);
    await db.close();
  });

  it('after a restart the sequences go on exactly as without one', async () => {
    const straight = await runFlow(join(dir, 'b'), Infinity);
    await db.close();
    const restarted = await runFlow(join(dir, 'c'), 40);
    for (const owner of [A, B]) {
      const stored: string[] = [];
      for await (const it of lastLog.replay(owner, 1, lastLog.head(owner))) stored.push(it.frame.toString('latin1'));
      expect(stored, owner).to.deep.equal(straight.get(owner));
    }
    expect(restarted.get(A)!.length).to.equal(straight.get(A)!.length);
    await db.close();
  });
});
