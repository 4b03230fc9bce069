/**
 * "Did you mean --grpc-addr?": the closest known name to a mistyped one, by edit distance
 * (Levenshtein), when it is close enough to be a plausible typo. Used for flags and commands.
 */

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The known name nearest to `name`, if within a third of its length (at least 1, at most 3 edits). */
export function closest(name: string, known: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= limit ? best : undefined;
}
