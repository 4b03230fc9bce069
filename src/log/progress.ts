/**
 * Progress of slow work, for people watching: a start-up step that lasts more than a
 * second logs what it is doing, how far it got, its rate and the time left, then once a
 * second until it ends, and a last line when it does. Quick steps log nothing.
 *
 *   const p = startProgress({ logger, what: 'order book replay', total: 5000, unit: 'ticks' });
 *   for (...) p.update(done);        // cheap: stores a number
 *   p.end();
 *
 * The figures (progressFigures) are shared with the CLI's progress bar (src/cli/progress-bar.ts).
 * Reporting reads a clock and a timer; it never feeds anything back into node state.
 */
import type { Logger } from 'pino';

export interface ProgressFigures {
  done: number;
  total?: number;
  percent?: number; // 0..100 when total is known
  rate: number; // units per second since the start
  etaSeconds?: number; // when total and a rate are known
  elapsedSeconds: number;
}

/** Rate and time left of `done` out of `total` after `elapsedMs`. Pure. */
export function progressFigures(done: number, total: number | undefined, elapsedMs: number): ProgressFigures {
  const elapsedSeconds = Math.max(0, elapsedMs) / 1000;
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const figures: ProgressFigures = { done, rate, elapsedSeconds };
  if (total !== undefined && total > 0) {
    figures.total = total;
    figures.percent = Math.min(100, (100 * done) / total);
    if (rate > 0) figures.etaSeconds = Math.max(0, (total - done) / rate);
  }
  return figures;
}

/** "1.2 s", "45 s", "3 min 20 s", "2 h 5 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "1,200 of 5,000 ticks (24%), 950 ticks/s, about 4.2 s left". */
export function describeProgress(f: ProgressFigures, unit: string): string {
  if (f.total === undefined && f.done === 0) return `still running after ${formatDuration(f.elapsedSeconds)}`;
  const parts = [
    f.total !== undefined
      ? `${count.format(f.done)} of ${count.format(f.total)} ${unit} (${Math.floor(f.percent ?? 0)}%)`
      : `${count.format(f.done)} ${unit}`,
  ];
  if (f.rate > 0) parts.push(`${count.format(f.rate)} ${unit}/s`);
  if (f.etaSeconds !== undefined) parts.push(`about ${formatDuration(f.etaSeconds)} left`);
  return parts.join(', ');
}

export interface ProgressOptions {
  logger: Logger | undefined; // undefined: report nothing
  what: string; // "order book replay"
  total?: number; // units to do, when known
  unit?: string; // default "ticks"
  afterMs?: number; // first report after this long (default 1000)
  everyMs?: number; // then this often (default 1000)
  now?: () => number; // milliseconds (default performance.now)
}

export interface Progress {
  /** How many units are done so far. */
  update(done: number): void;
  /** The work ended; logs a last line if anything was reported. */
  end(): void;
}

export function startProgress(options: ProgressOptions): Progress {
  const { logger, what } = options;
  if (!logger) return { update() {}, end() {} };
  const now = options.now ?? (() => performance.now());
  const unit = options.unit ?? 'ticks';
  const started = now();
  let done = 0;
  let reported = false;
  const report = (): void => {
    const f = progressFigures(done, options.total, now() - started);
    reported = true;
    const counted = f.total !== undefined || f.done > 0;
    const fields = counted
      ? {
          progress: what,
          done: f.done,
          total: f.total,
          rate: Math.round(f.rate),
          eta_s: f.etaSeconds === undefined ? undefined : Math.ceil(f.etaSeconds),
        }
      : { progress: what, elapsed_s: Number(f.elapsedSeconds.toFixed(3)) };
    logger.info(fields, `${what}: ${describeProgress(f, unit)}`);
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(function tick() {
    report();
    timer = setTimeout(tick, options.everyMs ?? 1000);
    timer.unref();
  }, options.afterMs ?? 1000);
  timer.unref();
  return {
    update(n: number) {
      done = n;
    },
    end() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!reported) return;
      const f = progressFigures(done, options.total, now() - started);
      const amount = f.total === undefined && f.done === 0 ? '' : ` ${count.format(f.done)} ${unit}`;
      logger.info(
        { progress: what, done: f.done, total: f.total, elapsed_s: Number(f.elapsedSeconds.toFixed(3)) },
        `${what}: done,${amount} in ${formatDuration(f.elapsedSeconds)}`,
      );
    },
  };
}
