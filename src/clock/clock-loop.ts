/**
 * The clock's loop, free of thread plumbing so tests can drive it in-process: take the
 * transactions waiting in the ring, hash them into the batch hash (Merkle root of the
 * full transaction hashes), derive x_n = hashToGroup(n, y_{n-1}, batch_hash) and square
 * until the tick may close (design.md "Cadence"):
 *
 *   - busy: at least `vdfIterations` squarings ran, and transactions are waiting or this
 *     tick carries some (a tick with transactions does not wait for the next arrival:
 *     under load both rules agree, at low load it keeps latency at one busy tick);
 *   - linger: for `lingerMs` after the last tick that carried transactions, an empty
 *     tick closes as soon as it reaches `trivialProofMaxT` squarings, so short gaps in
 *     traffic give cheap trivially-proven ticks instead of segments that need a
 *     Wesolowski proof (a proof costs the pool several milliseconds whatever T);
 *   - heartbeat: `idleTickMs` passed with nothing waiting and nothing carried;
 *   - a tick never closes while the tick ring is full: the chain keeps squaring (it never
 *     pauses) and the tick simply gets longer until the main thread catches up.
 *
 * A closed tick's proof is computed inline when it is trivial (T <= TRIVIAL_PROOF_MAX_T,
 * pi = 1); longer segments are flagged PROOF_PENDING for the worker pool.
 * After a stop request the clock ticks out everything queued, then returns 'stopped'
 * without emitting a final empty tick.
 */
import { rootOfLeafHashes } from '../crypto/merkle.js';
import { sha256 } from '../crypto/sha256.js';
import type { VdfEngine, VdfEvaluator } from '../vdf/interface.js';
import {
  type ClockControl,
  type ClockTick,
  readTxHashView,
  readTxSequence,
  writeTickSlot,
} from './protocol.js';
import type { RingQueue } from './ring.js';

export interface ClockParams {
  startTick: number; // number of the first tick to produce
  previousOutput: Uint8Array; // y of startTick - 1 (GENESIS_OUTPUT for tick 1)
  vdfIterations: number;
  idleTickMs: number;
  lastTimestamp: number; // microseconds of the last durable tick (timestamps never go back)
  maxTxPerTick: number;
  trivialProofMaxT: number; // longest segment proven inline
  lingerMs: number; // after a tick with transactions, close empty ticks trivially for this long
}

/** Squarings between two looks at the rings once a tick may close. */
const CHECK_CHUNK = 4;

export const nowMicros = (): number => Math.floor((performance.timeOrigin + performance.now()) * 1000);

export class ClockLoop {
  private tick: number;
  private previous: Uint8Array;
  private lastTimestamp: number;
  private readonly evaluator: VdfEvaluator;
  private readonly emptyProof = new Uint8Array(256);
  private lastBusyClose = -Infinity; // performance.now() when a tick with transactions closed
  private readonly leafScratch = new Uint8Array(33); // 0x00 || transaction hash

  constructor(
    private readonly engine: VdfEngine,
    private readonly txRing: RingQueue,
    private readonly tickRing: RingQueue,
    private readonly control: ClockControl,
    private readonly params: ClockParams,
    /** Hands a long segment's checkpoints to the main thread for its pool proof. */
    private readonly sendCheckpoints?: (tickNumber: number, checkpoints: Uint8Array) => void,
  ) {
    this.tick = params.startTick;
    this.previous = params.previousOutput;
    this.lastTimestamp = params.lastTimestamp;
    this.evaluator = engine.evaluator();
  }

  /** Produce one tick ('tick'), or return 'stopped' once stopping with nothing left. */
  step(): 'tick' | 'stopped' {
    const { txRing, tickRing, control, params, evaluator } = this;
    const n = Math.min(txRing.size(), params.maxTxPerTick);
    const leaves = new Array<Uint8Array>(n);
    const firstSequence = n > 0 ? readTxSequence(txRing, 0) : 0;
    // Leaf hashes SHA-256(0x00 || hash) through one scratch buffer (no allocation per leaf).
    const scratch = this.leafScratch;
    for (let k = 0; k < n; k++) {
      scratch.set(readTxHashView(txRing, k), 1);
      leaves[k] = sha256(scratch);
    }
    txRing.release(n);
    const batchHash = rootOfLeafHashes(leaves);
    const input = this.engine.hashToGroup(this.tick, this.previous, batchHash);
    evaluator.start(input);
    control.setCurrentTick(this.tick);
    const started = performance.now();

    const trivialMax = params.trivialProofMaxT;
    const canLinger = params.vdfIterations <= trivialMax;
    for (;;) {
      const done = evaluator.iterations;
      if (done < params.vdfIterations) {
        evaluator.square(Math.min(params.vdfIterations - done, 64));
        continue;
      }
      const waiting = txRing.size() > 0;
      if (n === 0 && !waiting && control.stopRequested()) return 'stopped';
      const lingering = n === 0 && canLinger && performance.now() - this.lastBusyClose < params.lingerMs;
      if (tickRing.free() > 0) {
        if (n > 0 || waiting) break;
        if (lingering && done >= trivialMax) break;
        if (performance.now() - started >= params.idleTickMs) break;
      }
      evaluator.square(lingering && done < trivialMax ? Math.min(CHECK_CHUNK, trivialMax - done) : CHECK_CHUNK);
    }

    const iterations = evaluator.iterations;
    const output = evaluator.output();
    const inline = iterations <= params.trivialProofMaxT;
    const checkpoints = !inline && this.sendCheckpoints ? evaluator.exportCheckpoints?.() : undefined;
    if (checkpoints) this.sendCheckpoints!(this.tick, checkpoints); // before the tick is published
    const timestamp = Math.max(nowMicros(), this.lastTimestamp);
    const closed: ClockTick = {
      tickNumber: this.tick,
      iterations,
      timestamp,
      firstSequence,
      txCount: n,
      proofPending: !inline,
      hasCheckpoints: checkpoints !== undefined,
      batchHash,
      input,
      output,
      proof: inline ? evaluator.prove() : this.emptyProof,
    };
    writeTickSlot(tickRing, 0, closed);
    tickRing.publish(1);
    this.previous = output;
    this.lastTimestamp = timestamp;
    if (n > 0) this.lastBusyClose = performance.now();
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
