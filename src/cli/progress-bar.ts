/**
 * Progress of a long CLI job on stderr. On a terminal: one line redrawn in place, at most
 * ten times a second,
 *   verifying [##########··········]  52%  5,200/10,000 ticks  1,234 ticks/s  ETA 4.0 s
 * Elsewhere (a pipe, a CI log): a plain line every few seconds. The figures are those of
 * the node's start-up progress (src/log/progress.ts).
 */
import { formatDuration, progressFigures } from '../log/index.js';

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressBar {
  update(done: number): void;
  /** Clear the bar (terminal) so the next line starts clean. */
  finish(): void;
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The bar's text for `done` of `total` after `elapsedMs`, fitted to `columns`. Pure. */
export function renderBar(
  label: string,
  unit: string,
  done: number,
  total: number,
  elapsedMs: number,
  columns = 80,
): string {
  const f = progressFigures(done, total, elapsedMs);
  const tail = [
    `${String(Math.floor(f.percent ?? 0)).padStart(3)}%`,
    `${count.format(done)}/${count.format(total)} ${unit}`,
    f.rate > 0 ? `${count.format(f.rate)} ${unit}/s` : '',
    f.etaSeconds !== undefined && done < total ? `ETA ${formatDuration(f.etaSeconds)}` : '',
  ]
    .filter(Boolean)
    .join('  ');
  const width = Math.max(10, Math.min(40, columns - label.length - tail.length - 6));
  const filled = Math.round((width * (f.percent ?? 0)) / 100);
  return `${label} [${'#'.repeat(filled)}${'·'.repeat(width - filled)}] ${tail}`;
}

/** A plain progress line: "verifying: 5,200 of 10,000 ticks (52%), 1,234 ticks/s, ETA 4.0 s". */
export function progressLine(label: string, unit: string, done: number, total: number, elapsedMs: number): string {
  const f = progressFigures(done, total, elapsedMs);
  const parts = [`${label}: ${count.format(done)} of ${count.format(total)} ${unit} (${Math.floor(f.percent ?? 0)}%)`];
  if (f.rate > 0) parts.push(`${count.format(f.rate)} ${unit}/s`);
  if (f.etaSeconds !== undefined && done < total) parts.push(`ETA ${formatDuration(f.etaSeconds)}`);
  return parts.join(', ');
}

export function createProgressBar(options: {
  out: ProgressOutput;
  label: string;
  unit: string;
  total: number;
  lineEveryMs?: number;
  now?: () => number;
}): ProgressBar {
  const { out, label, unit, total } = options;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let lastDraw = -Infinity;
  let drawn = false;
  const lineEvery = options.lineEveryMs ?? 2000;
  return {
    update(done: number) {
      const t = now();
      if (out.isTTY) {
        if (t - lastDraw < 100 && done < total) return;
        out.write(`\r${renderBar(label, unit, done, total, t - started, out.columns ?? 80)}\x1b[K`);
        drawn = true;
      } else {
        if (t - lastDraw < lineEvery || done >= total) return;
        out.write(`${progressLine(label, unit, done, total, t - started)}\n`);
      }
      lastDraw = t;
    },
    finish() {
      if (out.isTTY && drawn) out.write('\r\x1b[K');
    },
  };
}
