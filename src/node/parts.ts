/**
 * What a node has opened, and how it closes: the record of the parts (the database, the pool,
 * the sequencer, the chain, the order book, the faces), closed in reverse order of opening;
 * each start-up step with its progress line; a face's listening ports. The parts are opened
 * by ordering.ts (the ordering part) and after-ordering.ts (the rest), on one thread
 * (single-thread.ts) or two (threaded.ts, workers/node.worker.ts). This file loads none of
 * them, so the ordering thread does not load what only the node thread runs.
 */
import type { Piscina } from 'piscina';
import type { ChainRuntime } from '../chain/index.js';
import type { Database } from '../db/index.js';
import type { OrderBookRuntime } from '../dex/index.js';
import { startProgress, type Logger } from '../log/index.js';
import type { NodeMetrics } from '../metrics/index.js';
import type { Sequencer } from '../sequencer/index.js';
import type { RunningFace } from './interface.js';

/** What startNode has opened so far; closeParts closes it in reverse order. */
export interface Parts {
  faces: RunningFace[];
  db?: Database;
  pool?: Piscina;
  sequencer?: Sequencer;
  chain?: ChainRuntime;
  book?: OrderBookRuntime;
  metrics?: NodeMetrics;
}

export type Step = <T>(what: string, run: () => Promise<T>) => Promise<T>;

/** Every face stops accepting, the sequencer ticks out what is in flight, then faces, order book, chain, metrics, pool, database close. */
export async function closeParts(parts: Parts, logger: Logger): Promise<void> {
  const { faces, sequencer, book, chain, metrics, pool, db } = parts;
  for (const face of faces) face.stopAccepting();
  if (sequencer) await sequencer.stop().catch((err: unknown) => logger.error({ err }, 'sequencer stop failed'));
  for (const face of [...faces].reverse()) {
    await face.close().catch((err: unknown) => logger.error({ err, face: face.name }, 'face close failed'));
  }
  await book?.close().catch((err: unknown) => logger.error({ err }, 'order book close failed'));
  await chain?.close().catch((err: unknown) => logger.error({ err }, 'chain close failed'));
  metrics?.close();
  await pool?.destroy().catch((err: unknown) => logger.error({ err }, 'pool close failed'));
  if (db && db.status !== 'closed')
    await db.close().catch((err: unknown) => logger.error({ err }, 'database close failed'));
}

/** A node's failure after start: `failed` resolves with the first error `report` is given. */
export function failureSignal(): { failed: Promise<Error>; report: (err: Error) => void } {
  let report: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (report = resolve));
  return { failed, report };
}

/** Run one start-up step, logging progress if it lasts more than a second. */
export function makeStep(logger: Logger): Step {
  return async (what, run) => {
    const progress = startProgress({ logger, what });
    try {
      return await run();
    } finally {
      progress.end();
    }
  };
}

/** A face's ports: its own, then any more it listens on. */
export function listening(f: RunningFace): Array<{ name: string; address: string }> {
  return [
    { name: f.name, address: f.address },
    ...Object.entries(f.more ?? {}).map(([name, address]) => ({ name, address })),
  ];
}
