/**
 * The shared block root cache of FollowService (src/follow/root-cache.ts, issue 19 point 3):
 * however many streams ask for the same blocks at once, each stored block is read and hashed
 * once; a new block is hashed from the JSON the chain already made, without a read; roots
 * are the protobuf BlockRoot of the stored detail JSON.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { BlockDetail } from '../../src/chain/core/index.js';
import { BlockRootCache, READ_BATCH, type StoredBlocks } from '../../src/follow/root-cache.js';
import { encodeBlockRoot } from '../../src/follow/block-roots.js';

const jsonOf = (h: number): string => `{"block":{"height":${h}},"transactions":[],"events":[]}`;
const rootOf = (h: number): number[] => Array.from({ length: 32 }, (_, i) => (h + i) % 256);

describe('follow/root-cache', () => {
  it('many streams asking for the same stored blocks at once: each block read once, roots right', async () => {
    let latest = 200;
    let reads = 0;
    const stored: StoredBlocks = {
      read: async (h) => {
        reads++;
        return h <= latest ? { stateRoot: rootOf(h), json: jsonOf(h) } : undefined;
      },
    };
    const cache = new BlockRootCache({ latestHeight: () => latest, onBlock: () => () => undefined }, stored);
    const asks = await Promise.all(Array.from({ length: 50 }, () => cache.get(1, 200)));
    for (const got of asks) expect(got).to.have.length(READ_BATCH); // one batch at most per call
    expect(reads).to.equal(READ_BATCH);
    const want = encodeBlockRoot({
      height: '5',
      state_root: Buffer.from(rootOf(5)).toString('hex'),
      detail_sha256: createHash('sha256').update(jsonOf(5)).digest('hex'),
    });
    expect(asks[0]![4]!.equals(want)).to.equal(true);
    await Promise.all(Array.from({ length: 50 }, () => cache.get(1, 200)));
    expect(reads).to.equal(READ_BATCH);
    latest = 201;
    expect(await cache.get(202, 210)).to.deep.equal([]); // not produced yet: nothing, no read
    expect(reads).to.equal(READ_BATCH);
  });

  it('a new block is hashed once from the chain JSON, and wakes the waiting streams', async () => {
    let listener: ((d: BlockDetail) => void) | undefined;
    let latest = 0;
    const cache = new BlockRootCache(
      {
        latestHeight: () => latest,
        onBlock: (l) => ((listener = l), () => undefined),
        latestDetailJson: () => ({ height: 1, json: jsonOf(1) }),
      },
      { read: async () => expect.fail('no stored read for a live block') },
    );
    let woke = 0;
    cache.waitForBlock(() => woke++);
    cache.waitForBlock(() => woke++);
    latest = 1;
    listener!({ block: { height: 1, state_root: rootOf(1) }, transactions: [], events: [] } as unknown as BlockDetail);
    expect(woke).to.equal(2);
    expect(await cache.get(1, 1)).to.have.length(1);
  });
});
