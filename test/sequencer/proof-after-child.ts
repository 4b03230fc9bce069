/**
 * Child process for the "kill -9 between a tick's durability and its proof" test: a
 * sequencer on the database in argv[2] whose pool never finishes a proof, so every
 * heartbeat (and every tick after it) stays ordered and unproven. It submits one
 * transaction at a time and reports on stdout (synchronous for pipes) what a client of
 * the order could have seen: "O <tick> <tx count> <sha256 of the record without its
 * proof>" for each ordered tick and "A <sequence> <tx_hash> <tx_id>" for each
 * acknowledgement. The parent kills it with SIGKILL.
 */
import { openDatabase } from '../../src/db/index.js';
import { createPool } from '../../src/pool/index.js';
import { createSequencer } from '../../src/sequencer/index.js';
import { orderDigest, slowPool } from './proof-support.js';

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const db = await openDatabase(process.argv[2]!);
const pool = slowPool(createPool({ threads: 1 }), 3_600_000);
const seq = createSequencer({ db, pool, retainTicks: 1000, vdfIterations: 20, idleTickMs: 20, queueCapacity: 1000 });
await seq.start();
seq.orderedTicks!().onTick((t) => out(`O ${t.tickNumber} ${t.transactions.length} ${orderDigest(t)}`));
out('READY');
for (let n = 1; ; n++) {
  const txId = `proof-after-${process.pid}-${n}`;
  const r = await seq.submit({
    txId,
    payload: new Uint8Array(8).fill(n & 0xff),
    signature: new Uint8Array(0),
    publicKey: new Uint8Array(0),
    nonce: BigInt(n),
    timestamp: BigInt(n),
  });
  out(`A ${r.sequenceNumber} ${r.txHash} ${txId}`);
  await new Promise((resolve) => setTimeout(resolve, 30));
}
