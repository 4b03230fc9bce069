/**
 * Poll `get` until it gives a value other than undefined, or fail naming `what` after `ms`.
 * For tests that wait on a real node (ticks stored, blocks built, a snapshot taken).
 */
export async function until<T>(
  what: string,
  get: () => Promise<T | undefined> | T | undefined,
  ms = 60_000,
  stepMs = 50,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
