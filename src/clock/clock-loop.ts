/**
 * The clock's loop, free of thread plumbing so tests can drive it in-process. The clock
 * does only sequential VDF work (issue 8): at the start of each tick it takes the ONE
 * ready batch the batcher left in the batch ring (first sequence, count, batch hash,
 * ingestion digest: no per-transaction data, see batch-former.ts), fixes the tick's
 * timestamp (now, never before the previous tick's nor its transactions' ingestion),
 * derives x_n = hashToGroup(n, y_{n-1}, header_n) with header_n binding all of them
 * (src/vdf/binding.ts: one SHA-256 per tick) and squares until the tick may close
 * (design.md "Cadence", docs/sequencer.md "Cadence"):
 *
 *   - busy: at least `vdfIterations` squarings ran, and a batch is waiting or this tick
 *     carries one (a tick with transactions does not wait for the next arrival: under
 *     load both rules agree, at low load it keeps latency at one busy tick);
 *   - heartbeat: `idleTickMs` passed with nothing waiting and nothing carried; a batch
 *     arriving mid-heartbeat closes it early (its proof comes from the checkpoints, on
 *     the pool, while the next ticks go on and are ordered without waiting for it).
 *     A transaction costs at most the heartbeat it cuts and its own tick, so the chain
 *     grows with transactions and time, not with the clock's speed;
 *   - bridge (dense traffic only): while busy ticks come at most `bridgeGapMs` apart on
 *     average (a moving average over busy ticks, so a trickle or a short burst never
 *     qualifies), an empty tick closes at `trivialProofMaxT` squarings for up to
 *     `bridgeSpan` times that average after the last busy tick. A cut heartbeat costs the
 *     pool a Wesolowski proof (1.5-3 ms of CPU however short the gap); at hundreds of
 *     arrivals a second that would be a core of proofs, while a trivially proven tick
 *     costs nothing to prove (docs/sequencer.md "Clock cadence"). Also while the main
 *     thread reports the pool's proofs far behind (PROOFS_FAR_BEHIND), so no traffic can
 *     make proof work pile up without bound;
 *   - lagging proofs: while the main thread reports them lagging (PROOFS_LAGGING), an empty
 *     tick that a batch would cut runs `laggingGapMs` first: at most one proof per that gap,
 *     and ticks carry more transactions each (bridging here instead would close an empty
 *     tick every ~0.3 ms of squaring, each a commit and an apply on the main thread);
 *   - a tick never closes while the tick ring is full: the chain keeps squaring (it never
 *     pauses) and the tick simply gets longer until the main thread catches up.
 *
 * A closed tick's proof is computed inline when it is trivial (T <= TRIVIAL_PROOF_MAX_T,
 * pi = 1); longer segments are flagged PROOF_PENDING for the worker pool (their proof
 * is all zeros until the pool's proof is written).
 * After a stop request the clock ticks out everything queued (batch ring and the
 * transaction ring the batcher still drains), then returns 'stopped' without emitting a
 * final empty tick.
 */
import { nowMicros } from '../core/index.js';
import { EMPTY_ROOT } from '../crypto/index.js';
import { ingestionDigest, tickHeaderDigest } from '../vdf/index.js';
import type { VdfEngine, VdfEvaluator } from '../vdf/index.js';
import {
  type ClockControl,
  type ClockTick,
  PROOFS_FAR_BEHIND,
  PROOFS_LAGGING,
  type ReadyBatch,
  readBatchSlot,
  writeTickSlot,
} from './protocol.js';
import type { RingQueue } from './ring.js';
import { CheckpointBuffer } from './checkpoint-buffer.js';

export interface ClockParams {
  startTick: number; // number of the first tick to produce
  previousOutput: Uint8Array; // y of startTick - 1 (GENESIS_OUTPUT for tick 1)
  vdfIterations: number;
  idleTickMs: number;
  lastTimestamp: number; // microseconds of the last durable tick (timestamps never go back)
  maxTxPerTick: number; // for the batcher: most transactions one batch carries
  trivialProofMaxT: number; // longest segment proven inline
  bridgeGapMs: number; // dense traffic: busy ticks at most this far apart on average
  bridgeSpan: number; // bridge gaps up to this many times the average gap
  laggingGapMs: number; // while the pool's proofs lag: an empty tick runs this long before a batch cuts it
}

/** Weight of the newest gap in the average gap between busy ticks. */
const GAP_WEIGHT = 0.2;
/** The average gap before any traffic (ms): many dense gaps are needed before bridging starts. */
const QUIET_GAP_MS = 1000;

/** Squarings between two looks at the rings once a tick may close. */
const CHECK_CHUNK = 4;
/**
 * Squarings between two slices of the export buffer's preparation (checkpoint-buffer.ts):
 * a slice (~0.25 ms of page faults) per ~1.7 ms of squaring on the 2-core VM.
 */
const PREPARE_EVERY = 512;

const EMPTY_BATCH: ReadyBatch = {
  firstSequence: 0,
  txCount: 0,
  lastIngestion: 0,
  batchHash: EMPTY_ROOT,
  ingestionDigest: ingestionDigest([]),
};

export class ClockLoop {
  private tick: number;
  private previous: Uint8Array;
  private lastTimestamp: number;
  private readonly evaluator: VdfEvaluator;
  private readonly emptyProof = new Uint8Array(256);
  private lastBusyClose = -Infinity; // performance.now() when the last tick with transactions closed
  private averageGap = QUIET_GAP_MS; // moving average of the gaps between busy ticks (ms)
  private readonly exportBuffer = new CheckpointBuffer();

  constructor(
    private readonly engine: VdfEngine,
    private readonly batchRing: RingQueue,
    private readonly tickRing: RingQueue,
    private readonly control: ClockControl,
    private readonly params: ClockParams,
    /** Hands a long segment's checkpoints to the main thread for its pool proof. */
    private readonly sendCheckpoints?: (tickNumber: number, checkpoints: Uint8Array) => void,
    /** Transactions not yet batched (read only for the stop rule); none when absent. */
    private readonly txRing?: RingQueue,
  ) {
    this.tick = params.startTick;
    this.previous = params.previousOutput;
    this.lastTimestamp = params.lastTimestamp;
    this.evaluator = engine.evaluator();
  }

  /** Produce one tick ('tick'), or return 'stopped' once stopping with nothing left. */
  step(): 'tick' | 'stopped' {
    const { batchRing, tickRing, control, params, evaluator } = this;
    let batch = EMPTY_BATCH;
    if (batchRing.size() > 0) {
      batch = readBatchSlot(batchRing, 0);
      batchRing.release(1);
    }
    const n = batch.txCount;
    const timestamp = Math.max(nowMicros(), this.lastTimestamp, batch.lastIngestion);
    const header = tickHeaderDigest({
      tickNumber: this.tick,
      timestamp,
      firstSequence: batch.firstSequence,
      txCount: n,
      batchHash: batch.batchHash,
      ingestionDigest: batch.ingestionDigest,
    });
    const input = this.engine.hashToGroup(this.tick, this.previous, header);
    evaluator.start(input);
    control.setCurrentTick(this.tick);
    const started = performance.now();
    const trivialMax = params.trivialProofMaxT;
    const dense =
      this.averageGap <= params.bridgeGapMs && started - this.lastBusyClose < params.bridgeSpan * this.averageGap;
    const proofs = control.proofsBehind();
    const bridging = n === 0 && params.vdfIterations <= trivialMax && (dense || proofs === PROOFS_FAR_BEHIND);
    // While proofs lag, a batch cuts an empty tick only once it ran laggingGapMs.
    const cutFrom = n === 0 && !bridging && proofs === PROOFS_LAGGING ? started + params.laggingGapMs : 0;
    let preparedAt = 0;
    for (;;) {
      const done = evaluator.iterations;
      if (done < params.vdfIterations) {
        evaluator.square(Math.min(params.vdfIterations - done, 64));
        continue;
      }
      // Stop only with nothing left anywhere. The transaction ring is read BEFORE the batch
      // ring: the batcher publishes a batch before it releases its transactions, so a batch
      // formed between the two reads is seen (the other order lost it under load).
      if (n === 0 && control.stopRequested() && (this.txRing?.size() ?? 0) === 0 && batchRing.size() === 0)
        return 'stopped';
      const waiting = batchRing.size() > 0;
      if (tickRing.free() > 0) {
        if (n > 0 || (waiting && (cutFrom === 0 || performance.now() >= cutFrom))) break;
        if (bridging && done >= trivialMax) break;
        if (performance.now() - started >= params.idleTickMs) break;
      }
      // A heartbeat with nothing waiting, past the trivial length: prepare the next export's
      // buffer, one slice per PREPARE_EVERY squarings (squaring first on a starved machine).
      if (n === 0 && !waiting && this.sendCheckpoints && done > trivialMax && done >= preparedAt + PREPARE_EVERY) {
        this.exportBuffer.prepare();
        preparedAt = done;
      }
      evaluator.square(bridging && done < trivialMax ? Math.min(CHECK_CHUNK, trivialMax - done) : CHECK_CHUNK);
    }

    const iterations = evaluator.iterations;
    const output = evaluator.output();
    const inline = iterations <= params.trivialProofMaxT;
    const checkpoints =
      !inline && this.sendCheckpoints ? evaluator.exportCheckpoints?.(this.exportBuffer.ready()) : undefined;
    if (checkpoints) {
      this.exportBuffer.exported(checkpoints);
      this.sendCheckpoints!(this.tick, checkpoints); // before the tick is published; its whole buffer moves
    }
    const closed: ClockTick = {
      tickNumber: this.tick,
      iterations,
      timestamp,
      firstSequence: batch.firstSequence,
      txCount: n,
      proofPending: !inline,
      hasCheckpoints: checkpoints !== undefined,
      batchHash: batch.batchHash,
      ingestionDigest: batch.ingestionDigest,
      input,
      output,
      proof: inline ? evaluator.prove() : this.emptyProof,
    };
    writeTickSlot(tickRing, 0, closed);
    tickRing.publish(1);
    this.previous = output;
    this.lastTimestamp = timestamp;
    if (n > 0) {
      const now = performance.now();
      const gap = Math.min(now - this.lastBusyClose, QUIET_GAP_MS);
      this.averageGap += GAP_WEIGHT * (gap - this.averageGap);
      this.lastBusyClose = now;
    }
    this.tick++;
    return 'tick';
  }

  /** Run until stopped. */
  run(): void {
    while (this.step() === 'tick') {
      /* the chain never pauses */
    }
  }
}
