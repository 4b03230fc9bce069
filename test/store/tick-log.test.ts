/**
 * TickLog (src/store/tick-log.ts) on a real LevelDB: the tick construction is recorded
 * when a database is created, a database of another construction (v1 ticks, written
 * before the tick binding) is refused with a message naming it, and appends must follow
 * the head.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/index.js';
import { TickLog } from '../../src/store/tick-log.js';
import { TICK_FORMAT } from '../../src/vdf/binding.js';

describe('store/tick-log', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-ticklog-'));
    db = await openDatabase(dir);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the tick construction in a new database and opens it again', async () => {
    const log = new TickLog(db, { retainTicks: 10 });
    expect((await log.open(10, 100)).head).to.deep.equal({ tick: 0, lastSequence: 0 });
    expect(await log.disk.meta.get('format')).to.equal(TICK_FORMAT);
    await new TickLog(db, { retainTicks: 10 }).open(10, 100);
  });

  it('refuses a database of v1 ticks (no construction recorded) with a message naming it', async () => {
    const log = new TickLog(db, { retainTicks: 10 });
    await log.disk.meta.put('head', JSON.stringify({ tick: 5, last_sequence: 3 }));
    let error: Error | undefined;
    await log.open(10, 100).catch((e: Error) => (error = e));
    expect(error?.message).to.match(/holds 5 ticks of the svc-vdf-v1 construction, and this node writes svc-tick-v2/);
    expect(error?.message).to.include('start with a new --db-path');
  });

  it('refuses an append that does not follow the head', async () => {
    const log = new TickLog(db, { retainTicks: 10 });
    await log.open(10, 100);
    const tick = { tickNumber: 2 } as Parameters<TickLog['append']>[0][number];
    let error: Error | undefined;
    await log.append([tick], { tick: 2, lastSequence: 0 }).catch((e: Error) => (error = e));
    expect(error?.message).to.equal('tick 2 appended after 0');
  });
});
