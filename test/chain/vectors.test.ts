/**
 * docs/chain-vectors.json: the state root of the chain, recomputed three ways: the file,
 * the node's incremental engine on the same fixed flow, and the SDK's independent code
 * (src/sdk/chain-root.ts) from the file's inputs alone, as an outside client would.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chainStateRootOf, marketLeafOf, merkleTreeHash, toHex, usedIdLeafOf } from '../../src/sdk/index.js';
import { makeVectors, type ChainVectors } from './support/vectors.js';

const FILE = fileURLToPath(new URL('../../../docs/chain-vectors.json', import.meta.url));

describe('chain: state-root vectors (docs/chain-vectors.json)', function () {
  this.timeout(60_000);
  let file: ChainVectors;
  before(async () => {
    file = JSON.parse(await readFile(FILE, 'utf8')) as ChainVectors;
  });

  it('the node engine, run on the same fixed flow, gives exactly the file', () => {
    expect(JSON.parse(JSON.stringify(makeVectors()))).to.deep.equal(file);
  });

  it('an outside client recomputes every root from the file inputs (SDK, independent code)', () => {
    const f = file.flow;
    expect(f.markets.length).to.be.greaterThan(1);
    expect(f.used_ids.length).to.be.greaterThan(100);
    expect(f.markets.some((m) => m.orders.length > 0)).to.equal(true);
    expect(f.markets.map((m) => toHex(marketLeafOf(m)))).to.deep.equal(f.market_leaves);
    expect(f.used_ids.slice(0, 3).map((u) => toHex(usedIdLeafOf(u)))).to.deep.equal(f.used_id_leaves_first);
    const r = chainStateRootOf(f.markets, f.used_ids);
    expect(r).to.deep.equal({
      state_root: f.state_root,
      markets_root: f.markets_root,
      markets_size: f.markets_size,
      used_ids_root: f.used_ids_root,
    });
    expect(chainStateRootOf([], [])).to.deep.equal({
      state_root: file.empty.state_root,
      markets_root: file.empty.markets_root,
      markets_size: 64,
      used_ids_root: file.empty.used_ids_root,
    });
    // The empty used-id tree is SHA-256 of nothing (RFC 6962).
    expect(file.empty.used_ids_root).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(merkleTreeHash([]))).to.equal(file.empty.used_ids_root);
  });

  it('any change of an input changes the root', () => {
    const f = file.flow;
    const base = chainStateRootOf(f.markets, f.used_ids).state_root;
    const swapped = [...f.used_ids];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    expect(chainStateRootOf(f.markets, swapped).state_root).to.not.equal(base);
    expect(chainStateRootOf(f.markets, f.used_ids.slice(1)).state_root).to.not.equal(base);
    const m = f.markets.map((x, i) => (i === 0 ? { ...x, next_trade_id: String(BigInt(x.next_trade_id) + 1n) } : x));
    expect(chainStateRootOf(m, f.used_ids).state_root).to.not.equal(base);
    const withOrder = f.markets.findIndex((x) => x.orders.length > 0);
    const changed = f.markets.map((x, i) =>
      i === withOrder
        ? {
            ...x,
            orders: x.orders.map((o, j) => (j === 0 ? { ...o, remaining: String(BigInt(o.remaining) + 1n) } : o)),
          }
        : x,
    );
    expect(chainStateRootOf(changed, f.used_ids).state_root).to.not.equal(base);
  });
});
