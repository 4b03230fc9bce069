/**
 * Child process: the node's real gRPC face (hand-written codec, same handlers) over a
 * NO-OP sequencer that accepts everything at once. Not the node: it measures the
 * ceiling of the front-end alone, to show where ingestion time goes (compare with the
 * no-op grpc-js server and with the real node in bench/ingest.bench.ts).
 */
import { startGrpcFace } from '../../src/sequencer/api/grpc/server.js';
import { silentLogger } from '../../src/log/index.js';
import type { Sequencer } from '../../src/sequencer/interface.js';
import type { SubmitResult } from '../../src/core/types.js';

let seq = 0;
const accept = (): SubmitResult => ({ sequenceNumber: ++seq, expectedTick: 1, txHash: '00000000' });
const noop: Sequencer = {
  start: async () => {},
  stop: async () => {},
  submit: async () => accept(),
  submitBatch: async (txs) => txs.map(accept),
  getTick: async () => undefined,
  findTransactions: async () => [],
  recentTicks: () => [],
  readTicks: async function* () {},
  status: () => ({
    currentTick: 0,
    totalTransactions: seq,
    pendingTransactions: 0,
    uptimeSeconds: 0,
    transactionsPerSecond: 0,
    startedAt: 0,
  }),
  onTick: () => () => {},
};

const face = await startGrpcFace(noop, { host: '127.0.0.1', port: 0 }, { logger: silentLogger() });
process.stdout.write(`listening noop ${face.address}\n`);
process.on('SIGTERM', () => void face.close().then(() => process.exit(0)));
