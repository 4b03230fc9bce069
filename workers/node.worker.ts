/**
 * The node thread: everything of `svc node` but ordering (the order book, the chain, the
 * channels and every face), over the ordering thread's sequencer through a SequencerProxy
 * (src/node/sequencer-link.ts). Started by startNode when the node runs on two threads, before
 * the ordering thread opens anything: it loads its modules and prepares the faces that can
 * begin early (the gateway processes), then waits for the go-ahead.
 *
 * Messages with the ordering thread on parentPort: <- 'start' (the sequencer's seed and the
 * link's port), answered { t: 'up', addresses, lines } or { t: 'error', name, message };
 * <- 'abort' (ordering did not open: the prepared faces are dropped), answered { t: 'ok' };
 * { t: 'fail', message } when a part cannot go on; <- 'stop-accepting' and 'close', each
 * answered with { t: 'ok' }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../src/db/index.js';
import { createLogger } from '../src/log/index.js';
import { createMetrics } from '../src/metrics/index.js';
import { defaultFaces } from '../src/node/faces.js';
import type { FaceSpec, PreparedFace } from '../src/node/interface.js';
import { openAfterOrdering, startFaces } from '../src/node/after-ordering.js';
import { closeParts, listening, makeStep, type Parts } from '../src/node/parts.js';
import { SequencerProxy } from '../src/node/sequencer-proxy.js';
import type { NodeThreadRequest, NodeThreadStart, NodeWorkerData } from '../src/node/threaded.js';
import { createPool, workerFile } from '../src/pool/index.js';
import { takeThreadRole } from '../src/pool/thread-role.js';
import { WARM_TICKS } from '../src/sequencer/index.js';
import { DiskTickStore } from '../src/store/index.js';
import { readerPace } from '../src/wire/index.js';

takeThreadRole('node');

const data = workerData as NodeWorkerData;
const port = parentPort!;
const { config } = data;
const logger = createLogger(data.logLevel);
const parts: Parts = { faces: [] };
const step = makeStep(logger);
readerPace.configure({ minBytesPerS: config.readerFloor });
const specs = defaultFaces();
const prepared = new Map<FaceSpec, PreparedFace>();
for (const spec of specs) if (spec.prepare) prepared.set(spec, spec.prepare(config, logger));

/** The ordering thread's go-ahead, or undefined when it gave up ('abort'). */
let handOver: (start: NodeThreadStart | undefined) => void = () => undefined;
const started = new Promise<NodeThreadStart | undefined>((resolve) => (handOver = resolve));

port.on('message', (m: NodeThreadRequest) => {
  if (m.t === 'start') handOver(m);
  else if (m.t === 'abort') handOver(undefined);
  else if (m.t === 'stop-accepting') {
    for (const face of parts.faces) face.stopAccepting();
    port.postMessage({ t: 'ok' });
  } else if (m.t === 'close') {
    closeParts(parts, logger).then(
      () => port.postMessage({ t: 'ok' }),
      () => port.postMessage({ t: 'ok' }),
    );
  }
});

const start = await started;
if (start === undefined) {
  for (const early of prepared.values()) await early.abort().catch(() => undefined);
  port.postMessage({ t: 'ok' });
} else await open(start);

/** Everything but ordering, over the sequencer behind `start.port`; answers 'up' or 'error'. */
async function open(start: NodeThreadStart): Promise<void> {
  try {
    const db = await openDatabase(config.dbPath, { shared: true });
    parts.db = db;
    const disk = new DiskTickStore(db);
    // The node's memory window (--retain-ticks, --retain-bytes) lives here, warmed from disk
    // before the link is read (its messages wait), so it continues with the first tick handed over.
    const warm = await disk.readLast(Math.min(config.retainTicks, WARM_TICKS), Infinity, start.seed.status.currentTick);
    const sequencer = new SequencerProxy(start.port, start.seed, {
      disk,
      first: (await disk.loadBase())?.tick ?? 1,
      windowTicks: config.retainTicks,
      windowBytes: config.retainBytes,
      warm,
    });
    // Here only the order book's signatures when it has no pool of its own (--dex-signature-threads 0):
    // otherwise nothing runs on it, and it starts no thread unless something does.
    const pool = createPool({
      preload: workerFile('ed25519'),
      ...(data.poolThreads ? { threads: data.poolThreads } : {}),
      onDemand: config.dexSignatureThreads > 0,
    });
    parts.pool = pool;
    const fail = (err: Error) => port.postMessage({ t: 'fail', message: err.message });
    const state = await openAfterOrdering(config, parts, step, logger, fail, db, pool, sequencer, true);
    // What the ordering thread counts as behind: ticks after the last one applied here.
    state.book.applier.onApplied((record) => sequencer.markApplied(record.tick.tickNumber));
    sequencer.markApplied(Math.max(1, state.book.applier.lastTick));
    const faces = parts.faces;
    const metrics = createMetrics({
      sequencer,
      streamClients: () => faces.reduce((n, f) => n + (f.streamClients?.() ?? 0), 0),
    });
    parts.metrics = metrics;
    await startFaces(specs, prepared, { ...state, metrics }, parts, step);
    const lines: string[] = [];
    for (const { name, address } of faces.flatMap(listening)) {
      lines.push(`listening ${name} ${address}`);
      logger.info({ face: name, address }, 'listening');
    }
    const addresses = Object.fromEntries(faces.flatMap(listening).map((f) => [f.name, f.address]));
    logger.info(
      {
        dbPath: config.dbPath,
        addresses,
        retainTicks: config.retainTicks,
        vdfIterations: config.vdfIterations,
        nodeThread: true,
      },
      'node started',
    );
    port.postMessage({ t: 'up', addresses, lines });
  } catch (err) {
    logger.error({ err }, 'node thread failed to start');
    for (const early of prepared.values()) await early.abort().catch(() => undefined);
    await closeParts(parts, logger);
    const e = err as Error;
    port.postMessage({ t: 'error', name: e?.name, message: e?.message ?? String(err) });
  }
}
