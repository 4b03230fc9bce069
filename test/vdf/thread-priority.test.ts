/**
 * The pool's VDF threads run at a lower priority than the main thread (Linux: per-thread
 * nice values): a real Piscina pool runs a VDF task, and the thread that ran it has nice
 * VDF_THREAD_NICE in /proc while the main thread keeps its own.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createPool, workerFile } from '../../src/pool/index.js';
import { VDF_THREAD_NICE } from '../../src/pool/thread-priority.js';
import { GENESIS_OUTPUT, referenceVdfEngine } from '../../src/vdf/index.js';

/** Nice value of a thread from /proc/<pid>/task/<tid>/stat (field 19). */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('pool: VDF threads yield to the main thread', function () {
  this.timeout(30_000);

  it('a thread that ran a VDF task has nice VDF_THREAD_NICE; the main thread is unchanged', async function () {
    if (!existsSync('/proc/thread-self')) this.skip();
    const pool = createPool({ threads: 1 });
    try {
      const before = niceOf(process.pid);
      const engine = referenceVdfEngine();
      const x = engine.hashToGroup(1, GENESIS_OUTPUT, new Uint8Array(32));
      const ev = engine.evaluator();
      ev.start(x);
      ev.square(200);
      await pool.run({ input: x, output: ev.output(), iterations: 200 }, { filename: workerFile('vdf'), name: 'prove' });
      const tids = (await import('node:fs')).readdirSync(`/proc/${process.pid}/task`).map(Number);
      const niced = tids.filter((t) => niceOf(t) === Math.min(19, before + VDF_THREAD_NICE));
      expect(niced.length, 'the pool thread').to.be.at.least(1);
      expect(niceOf(process.pid)).to.equal(before);
    } finally {
      await pool.destroy();
    }
  });
});
