/**
 * The node's chain height read black-box, the way an operator would: REST
 * GET /api/v1/status (`chain_height`: the latest tick). Benchmarks take two readings to get
 * ticks per second.
 */

/** chain_height from GET http://<rest>/api/v1/status. */
export async function chainHeight(rest: string): Promise<number> {
  const res = await fetch(`http://${rest}/api/v1/status`);
  if (!res.ok) throw new Error(`GET /api/v1/status: ${res.status}`);
  const body = (await res.json()) as { chain_height?: number; data?: { chain_height?: number } };
  const h = body.chain_height ?? body.data?.chain_height;
  if (typeof h !== 'number')
    throw new Error(`GET /api/v1/status: no chain_height in ${JSON.stringify(body).slice(0, 200)}`);
  return h;
}
