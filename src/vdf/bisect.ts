/**
 * Bisection over a randomized batch check: if the combined check of a set fails, split
 * it in halves and check each (fresh randomness every time) down to single items,
 * which are decided by the exact individual check. So every item reported bad really is
 * bad, and a valid set always passes (the combined check has perfect completeness).
 */
export function bisect<T>(items: T[], combined: (set: T[]) => boolean, single: (item: T) => boolean): T[] {
  const bad: T[] = [];
  const visit = (set: T[]): void => {
    if (set.length === 0) return;
    if (set.length === 1) {
      if (!single(set[0])) bad.push(set[0]);
      return;
    }
    if (combined(set)) return;
    const mid = set.length >>> 1;
    visit(set.slice(0, mid));
    visit(set.slice(mid));
  };
  visit(items);
  return bad;
}
