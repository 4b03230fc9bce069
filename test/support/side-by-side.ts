/**
 * Independent asynchronous steps a test runs a few at a time instead of one after another:
 * child processes (each `svc` start-up costs ~1 s, mostly CPU, so a few at once keep both
 * cores of a CI machine busy) or reads of a database (each waits on its own I/O). Only for
 * steps that share nothing: none changes what another reads. Each result is kept in its
 * item's place, so a test asserts each one exactly as when they ran in turn. It does not
 * retry or time out anything: a step's own failure is the test's.
 */

/** How many steps run at once unless the caller says: enough to fill 2 cores while some wait. */
export const SIDE_BY_SIDE = 4;

/** fn over every item, at most `limit` at a time; the results in the items' order. */
export async function sideBySide<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = SIDE_BY_SIDE,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
