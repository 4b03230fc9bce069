/**
 * The clock worker (design.md "Threads"): one long-lived thread that runs the VDF chain
 * without pause. It loads the WASM engine when src/vdf provides one (falling back to
 * the BigInt reference engine), tells the main thread it is ready, then loops in
 * ClockLoop until asked to stop. All traffic goes through the SharedArrayBuffer rings (it
 * reads ready batches from the batch ring, never transactions)
 * and control block given in workerData; postMessage is used only for ready/done/error and for the checkpoints of long
 * segments (a megabyte or two a heartbeat, transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ClockLoop, type ClockParams } from '../src/clock/clock-loop.js';
import { CLOCK_DONE, CLOCK_FAILED, CLOCK_RUNNING, ClockControl } from '../src/clock/protocol.js';
import { RingQueue } from '../src/clock/ring.js';
import type { VdfEngine } from '../src/vdf/interface.js';
import { takeThreadRole } from '../src/pool/thread-role.js';

takeThreadRole('clock');

export interface ClockWorkerData {
  batchRing: SharedArrayBuffer;
  txRing: SharedArrayBuffer; // read only for the stop rule
  tickRing: SharedArrayBuffer;
  control: SharedArrayBuffer;
  params: ClockParams;
  engine: 'auto' | 'wasm' | 'reference';
}

async function loadEngine(kind: ClockWorkerData['engine']): Promise<{ engine: VdfEngine; name: string }> {
  const vdf = (await import('../src/vdf/index.js')) as unknown as Record<string, unknown>;
  const reference = vdf.referenceVdfEngine as () => VdfEngine;
  if (kind !== 'reference' && typeof vdf.loadVdfEngine === 'function') {
    try {
      const engine = await (vdf.loadVdfEngine as () => VdfEngine | Promise<VdfEngine>)();
      return { engine, name: 'wasm' };
    } catch (err) {
      if (kind === 'wasm') throw err;
    }
  } else if (kind === 'wasm') {
    throw new Error('the WASM VDF engine is not available');
  }
  return { engine: reference(), name: 'reference' };
}

async function main(): Promise<void> {
  const data = workerData as ClockWorkerData;
  const control = new ClockControl(data.control);
  try {
    const { engine, name } = await loadEngine(data.engine);
    const loop = new ClockLoop(
      engine,
      RingQueue.attach(data.batchRing),
      RingQueue.attach(data.tickRing),
      control,
      data.params,
      (tickNumber, checkpoints) =>
        parentPort?.postMessage({ type: 'checkpoints', tickNumber, checkpoints }, [checkpoints.buffer as ArrayBuffer]),
      RingQueue.attach(data.txRing),
    );
    control.setState(CLOCK_RUNNING);
    parentPort?.postMessage({ type: 'ready', engine: name });
    loop.run();
    control.setState(CLOCK_DONE);
    parentPort?.postMessage({ type: 'done' });
  } catch (err) {
    control.setState(CLOCK_FAILED);
    parentPort?.postMessage({
      type: 'error',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  }
}

void main();
