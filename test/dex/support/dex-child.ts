/**
 * Child process for the kill -9 test: `node dex-child.js <db-path>` starts the real
 * sequencer and the order book, prints `listening dex 127.0.0.1:PORT`, and runs until
 * killed.
 */
import { startRealDex } from './real-node.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: dex-child <db-path>');
  process.exit(2);
}
const node = await startRealDex(dir);
console.log(`listening dex ${node.dex.address}`);
process.on('SIGTERM', () => void node.close().then(() => process.exit(0)));
// Never outlive the test that started us: exit when our stdin (a pipe from the parent) closes.
process.stdin.on('end', () => process.exit(1));
process.stdin.resume();
