/**
 * A stored chain snapshot back into live state: the engine and the block builder's state,
 * checked to agree on the tick. The node uses it at restart and a full node on a snapshot
 * fetched from its leader, so both start from the same code.
 */
import { decodeSnapshot, OrderBookEngine } from '../../dex/engine/index.js';
import type { BuilderState } from './builder.js';
import type { StoredSnapshot } from './store.js';

/**
 * The engine and the block builder's state of a stored snapshot; throws if it does not
 * decode or its parts disagree on the tick (also the check of a snapshot fetched from a
 * leader, a full node's bootstrap).
 */
export function restoreSnapshot(snap: StoredSnapshot): { engine: OrderBookEngine; builderState: BuilderState } {
  const engine = new OrderBookEngine(decodeSnapshot(snap.engine));
  const builderState = JSON.parse(snap.builder) as BuilderState;
  if (engine.lastTick !== snap.tick || builderState.lastTick !== snap.tick)
    throw new Error(
      `chain snapshot is inconsistent (tick ${snap.tick}, engine ${engine.lastTick}, builder ${builderState.lastTick})`,
    );
  return { engine, builderState };
}
