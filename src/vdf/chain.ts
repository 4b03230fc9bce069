/**
 * How a set of ticks hangs together, apart from each tick's own proof: tick 1 starts from
 * the genesis output, each tick's previous_output is the output of the tick numbered one
 * less, a tick number appears once (or twice with the same output), and the numbers have
 * no holes. Pure, no engine: the browser verifier (browser.ts) and `svc verify` (src/cli)
 * both use it, so they judge a chain the same way.
 *
 * A gap is a failure: a batch whose ticks 41 and 43 both verify still proves nothing about
 * the link between them, so tick 43 is reported (CHAIN_GAP) and the batch is not ok.
 */
import { bytesEqual } from './bytes.js';
import { GENESIS_OUTPUT } from './hashing.js';
import type { VdfTickInput } from './interface.js';

export type ChainFailureCode = 'BAD_GENESIS' | 'DUPLICATE_TICK' | 'CHAIN_BREAK' | 'CHAIN_GAP';

export interface ChainFailure {
  index: number; // into the given array
  tickNumber: number;
  code: ChainFailureCode;
  message: string;
}

/** Tick numbers missing between two given ticks, inclusive: ticks 42..42 for [41, 43]. */
export interface ChainGap {
  from: number;
  to: number;
}

export interface ChainCheck {
  /** BAD_GENESIS, DUPLICATE_TICK and CHAIN_BREAK: the tick itself is wrong. At most one per index. */
  broken: ChainFailure[];
  /** CHAIN_GAP: the first tick after each hole, whose link cannot be checked. */
  gaps: ChainFailure[];
  /** The holes themselves. */
  missing: ChainGap[];
}

/** Check the chaining of `ticks` (any order; null entries are skipped, e.g. unparsable JSON). */
export function checkChain(ticks: readonly (VdfTickInput | null)[]): ChainCheck {
  const broken = new Map<number, ChainFailure>();
  const fail = (index: number, t: VdfTickInput, code: ChainFailureCode, message: string): void => {
    if (!broken.has(index)) broken.set(index, { index, tickNumber: t.tickNumber, code, message });
  };

  const byNumber = new Map<number, { tick: VdfTickInput; index: number }>();
  ticks.forEach((t, i) => {
    if (!t) return;
    if (t.tickNumber === 1 && !bytesEqual(t.previousOutput, GENESIS_OUTPUT))
      fail(i, t, 'BAD_GENESIS', 'tick 1 must start from the genesis output');
    const seen = byNumber.get(t.tickNumber);
    if (!seen) byNumber.set(t.tickNumber, { tick: t, index: i });
    else if (!bytesEqual(seen.tick.claim.output, t.claim.output))
      fail(i, t, 'DUPLICATE_TICK', `tick ${t.tickNumber} appears twice with different outputs`);
  });
  ticks.forEach((t, i) => {
    if (!t || broken.has(i)) return;
    const before = byNumber.get(t.tickNumber - 1);
    if (before && !bytesEqual(before.tick.claim.output, t.previousOutput)) {
      fail(
        i,
        t,
        'CHAIN_BREAK',
        `previous_output of tick ${t.tickNumber} is not the output of tick ${t.tickNumber - 1}`,
      );
    }
  });

  const gaps: ChainFailure[] = [];
  const missing: ChainGap[] = [];
  const numbers = [...byNumber.keys()].sort((a, b) => a - b);
  for (let k = 1; k < numbers.length; k++) {
    const [a, b] = [numbers[k - 1]!, numbers[k]!];
    if (b - a <= 1) continue;
    const gap = { from: a + 1, to: b - 1 };
    missing.push(gap);
    const missingText =
      gap.from === gap.to ? `tick ${gap.from} is missing` : `ticks ${gap.from}..${gap.to} are missing`;
    const { tick, index } = byNumber.get(b)!;
    gaps.push({
      index,
      tickNumber: tick.tickNumber,
      code: 'CHAIN_GAP',
      message: `${missingText}: the link from tick ${a} to tick ${b} cannot be checked`,
    });
  }
  return { broken: [...broken.values()].sort((x, y) => x.index - y.index), gaps, missing };
}
