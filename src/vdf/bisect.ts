/**
 * Bisection over a randomized batch check: if the combined check of a set fails, split
 * it in halves and check each (fresh randomness every time) down to single items,
 * which are decided by the exact individual check. So every item reported bad really is
 * bad, and a valid set always passes (the combined check has perfect completeness).
 *
 * Work budget: bisection costs about d * log(n/d) combined checks for d bad items, which
 * for a mostly-bad batch (a hostile peer) would cost several times individual checking.
 * Once the items put through combined checks add up to `budget` times the batch size,
 * the remaining undecided sets are checked one item at a time instead, so a batch never
 * costs much more than checking every item individually.
 */
export function bisect<T>(items: T[], combined: (set: T[]) => boolean, single: (item: T) => boolean, budget = 4): T[] {
  const bad: T[] = [];
  let work = 0;
  const limit = budget * items.length;
  const visit = (set: T[]): void => {
    if (set.length === 0) return;
    if (set.length === 1 || work >= limit) {
      for (const item of set) if (!single(item)) bad.push(item);
      return;
    }
    work += set.length;
    if (combined(set)) return;
    const mid = set.length >>> 1;
    visit(set.slice(0, mid));
    visit(set.slice(mid));
  };
  visit(items);
  return bad;
}
