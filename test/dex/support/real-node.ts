/**
 * Test helper: the real tick sequencer (createSequencer) over a real LevelDB and pool,
 * with the order book started on top: the same wiring the node does, small enough to run
 * in a test or as a child process (dex-child.ts) that a test kills with SIGKILL.
 */
import { openDatabase } from '../../../src/db/index.js';
import { createPool } from '../../../src/pool/index.js';
import { createSequencer } from '../../../src/sequencer/index.js';
import { startDex } from '../../../src/dex/api/index.js';

export async function startRealDex(dir: string, addr = '127.0.0.1:0') {
  const db = await openDatabase(dir);
  const pool = createPool({ threads: 1 });
  const sequencer = createSequencer({
    db,
    pool,
    retainTicks: 10_000,
    vdfIterations: 20,
    idleTickMs: 50,
    queueCapacity: 50_000,
  });
  await sequencer.start();
  const dex = await startDex({ db, pool, sequencer, dbPath: dir, addr });
  return {
    dex,
    sequencer,
    url: `http://${dex.address}`,
    async close() {
      await dex.close();
      await sequencer.stop();
      await pool.destroy();
      await db.close().catch(() => undefined);
    },
  };
}
