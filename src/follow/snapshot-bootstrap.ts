/**
 * Start a new full node from its leader's snapshot instead of from genesis
 * (--follow-from snapshot, docs/full-node.md "Starting from a snapshot"). On an empty
 * --db-path, before anything else starts:
 *
 *   1. fetch the leader's latest chain snapshot (snapshot-client.ts: description, length,
 *      SHA-256) and check that it decodes into an engine and a builder at its tick T
 *      (the chain's restoreSnapshot, the same code a restart uses, handed in as
 *      ChainSnapshotCode) with the announced heights;
 *   2. fetch tick T with GetTick and check it as every tick is checked (check.ts: it binds
 *      its fields, batch hash, sequence numbers; its VDF proof on the pool); its link to
 *      tick T-1 cannot be checked (that is the trust placed in the leader's history);
 *   3. write, in one atomic batch: tick T as the tick store's first tick with the head
 *      {T, last sequence at T} (TickLog.seed), the chain snapshot and chain head, the
 *      records of the block open at T (the chain's openRecordOps, checked against the ids
 *      the builder state lists), and `follow-meta` / `matched` = the last block produced at T.
 *
 * Then the node starts as after a restart: the chain restores from that snapshot, the
 * follower streams from T+1 with tick T as the link, and the RootsCheck compares every
 * block produced after T (the one open at T first) with the leader's; a snapshot whose state differs from the one the
 * leader's blocks commit to stops the follower at the first of them (STATE_ROOT_MISMATCH).
 * A refusal at any step writes nothing.
 */
import type { Piscina } from 'piscina';
import type { NodeClient } from '../sequencer/api/client/index.js';
import { ChainStore, decodeStoredSnapshot, encodeStoredSnapshot } from '../chain/core/index.js';
import type { Database } from '../db/index.js';
import { binarySublevel, type ExtraOp, type Head } from '../store/index.js';
import type { TickLog } from '../store/index.js';
import { verifyBatchOnPool } from '../vdf/index.js';
import { checkTicks } from './check.js';
import { FollowError, type ChainSnapshotCode } from './interface.js';
import { fetchSnapshot } from './snapshot-client.js';
import { tickOfWire } from './decode-tick.js';

/** How long the leader may take to serve the snapshot's tick with its proof. */
const MISSING_TICK_WAIT_MS = 5_000;

export interface SeedOptions {
  leader: string;
  /** The chain's code that restores the snapshot and writes its open block's records. */
  chain: ChainSnapshotCode;
  client: NodeClient;
  db: Database;
  log: TickLog;
  pool: Piscina;
  onInfo?: (fields: Record<string, unknown>, message: string) => void;
}

/** Seed an empty store from the leader's snapshot; returns the new head {T, last sequence}. Throws FollowError, writing nothing. */
export async function seedFromSnapshot(o: SeedOptions): Promise<Head> {
  const { info, bytes, open } = await fetchSnapshot(o.leader);
  const refused = (why: string, code = 'BAD_SNAPSHOT'): FollowError =>
    new FollowError(
      `the snapshot from the leader at ${o.leader} (tick ${info.tick}) is refused: ${why}; nothing was written`,
      info.tick,
      code,
    );
  let snap;
  let heights: { produced: number; last: number };
  let openOps: ExtraOp[];
  try {
    snap = decodeStoredSnapshot(bytes);
    const { builderState } = o.chain.restoreSnapshot(snap);
    heights = { produced: builderState.producedHeight, last: builderState.lastHeight };
    try {
      openOps = o.chain.openRecordOps(new ChainStore(o.db), builderState, open);
    } catch (err) {
      throw refused(`the records of its open block do not fit it: ${(err as Error).message}`);
    }
  } catch (err) {
    if (err instanceof FollowError) throw err;
    throw refused(`it does not decode: ${(err as Error).message}`);
  }
  if (snap.tick !== info.tick)
    throw refused(`it holds the state at tick ${snap.tick}, not at the announced tick ${info.tick}`);
  if (heights.produced !== info.producedHeight || heights.last !== info.lastHeight) {
    throw refused(
      `its builder is at heights ${heights.produced}/${heights.last}, not the announced ${info.producedHeight}/${info.lastHeight}`,
    );
  }

  // The leader's order book (and so its snapshot) may be a moment ahead of its proven
  // ticks (docs/sequencer.md "Order first, proof after"): give tick T's proof a moment.
  let wire = await o.client.getTick(info.tick).catch(() => undefined);
  for (let waited = 0; !wire && waited < MISSING_TICK_WAIT_MS; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    wire = await o.client.getTick(info.tick).catch(() => undefined);
  }
  if (!wire) throw refused(`the leader does not serve tick ${info.tick}`, 'MISSING_TICK');
  const tick = tickOfWire(wire);
  if (!('vdfProof' in tick))
    throw refused(`tick ${info.tick} fails verification: ${tick.code}: ${tick.message}`, tick.code);
  const checked = checkTicks({ before: undefined, lastSequence: 0, firstTick: info.tick }, [tick]);
  const failure = checked.failures[0];
  if (failure) throw refused(`tick ${info.tick} fails verification: ${failure.code}: ${failure.message}`, failure.code);
  const txs = tick.transactions;
  // An empty tick T cannot show its last sequence number: the announced one is taken (and tick T+1's are checked above it).
  if (txs.length > 0 && txs[txs.length - 1]!.sequenceNumber !== info.lastSequence) {
    throw refused(
      `tick ${info.tick} ends at sequence number ${txs[txs.length - 1]!.sequenceNumber}, not at the announced last_sequence ${info.lastSequence}`,
      'BAD_SEQUENCE',
    );
  }
  const verdict = await verifyBatchOnPool(o.pool, checked.inputs);
  if (verdict.invalid.length > 0) {
    const e = verdict.errors?.[0];
    throw refused(
      `tick ${info.tick} fails verification: ${e?.code ?? 'INVALID_PROOF'}: ${e?.message ?? 'the VDF proof does not verify'}`,
      e?.code ?? 'INVALID_PROOF',
    );
  }

  const head: Head = { tick: info.tick, lastSequence: info.lastSequence };
  const chainMeta = binarySublevel(o.db, 'chain-meta');
  const text = (v: string): Uint8Array => new TextEncoder().encode(v);
  const extra: ExtraOp[] = [
    { type: 'put', sublevel: chainMeta, key: 'snapshot', value: encodeStoredSnapshot(snap) },
    {
      type: 'put',
      sublevel: chainMeta,
      key: 'head',
      value: text(JSON.stringify({ tick: info.tick, height: info.producedHeight })),
    },
    {
      type: 'put',
      sublevel: binarySublevel(o.db, 'follow-meta'),
      key: 'matched',
      value: text(String(info.producedHeight)),
    },
    ...openOps,
  ];
  await o.log.seed(tick, head, extra);
  o.onInfo?.(
    {
      leader: o.leader,
      tick: info.tick,
      bytes: info.totalBytes,
      lastSequence: info.lastSequence,
      producedHeight: info.producedHeight,
      firstCompared: info.producedHeight + 1,
    },
    "follower: started from the leader's snapshot",
  );
  return head;
}
