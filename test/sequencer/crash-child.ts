/**
 * Child process for the kill -9 test: runs a sequencer on the database directory given
 * in argv[2] under continuous load and reports, on stdout (synchronous for pipes), what
 * a client has observed: "T <tick> <sha256 of its archived record>" for each tick it
 * saw, "A <sequence> <tx_hash> <tx_id>" for each acknowledged transaction. The parent
 * kills it with SIGKILL at an arbitrary moment.
 */
import { createHash } from 'node:crypto';
import { openDatabase } from '../../src/db/index.js';
import { createPool } from '../../src/pool/index.js';
import { createSequencer, SubmitError } from '../../src/sequencer/index.js';
import { encodeArchiveRecord } from '../../src/store/archive.js';

const dir = process.argv[2]!;
// process.stdout is synchronous for pipes on Linux: a line the parent reads was written
// before the kill, so it is something a client really saw.
const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const db = await openDatabase(dir);
const pool = createPool({ threads: 1 });
const seq = createSequencer({ db, pool, retainTicks: 1000, vdfIterations: 20, idleTickMs: 20, queueCapacity: 20_000 });
await seq.start();
seq.onTick((t) => out(`T ${t.tickNumber} ${createHash('sha256').update(encodeArchiveRecord(t)).digest('hex')}`));
out('READY');

// Several concurrent clients, like a loaded node: the queue never runs dry.
let n = 0;
async function client(): Promise<never> {
  for (;;) {
    const batch = Array.from({ length: 100 }, () => {
      n++;
      return {
        txId: `crash-${process.pid}-${n}`,
        payload: new Uint8Array(100).fill(n & 0xff),
        signature: new Uint8Array(0),
        publicKey: new Uint8Array(0),
        nonce: BigInt(n),
        timestamp: BigInt(n),
      };
    });
    const results = await seq.submitBatch(batch);
    let refused = false;
    results.forEach((r, i) => {
      if (!(r instanceof SubmitError)) out(`A ${r.sequenceNumber} ${r.txHash} ${batch[i]!.txId}`);
      else refused = true;
    });
    // A well-behaved client backs off when the queue is full.
    await new Promise((r) => (refused ? setTimeout(r, 2) : setImmediate(r)));
  }
}
await Promise.all([client(), client(), client(), client()]);
