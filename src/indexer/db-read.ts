/**
 * The indexer answers as the node's explorer does (the error table of docs/chain.md: the explorer's
 * refusal, its status table and its error middleware, reused from the chain), plus the one
 * refusal of its own: 503 with Retry-After while PostgreSQL does not answer.
 */
import { ChainRefusal } from '../chain/api/index.js';

/** A database read: its failure is a 503 that says the database is unreachable. */
export async function read<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    const message = `the indexer's database is unavailable: ${(err as Error).message}`;
    throw new ChainRefusal('UNAVAILABLE', message, { retryAfter: 1 });
  }
}
