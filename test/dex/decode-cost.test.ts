/**
 * Every decode of client input is bounded by its length before any work that grows faster
 * than linearly (Base58 is quadratic, BigInt parsing of decimal text too): the order book's
 * request parsers and the SDK's receipt reader refuse oversized fields at a cost independent
 * of their length. Measured as the best of several timed rounds on this thread.
 */
import { expect } from 'chai';
import { parseCancel, parseCreateMarket, parsePlaceOrder } from '../../src/dex/validate.js';
import { DexRefusal } from '../../src/dex/errors.js';
import { fromBase58Key, toBase58, verifyReceiptDetailed, type Receipt } from '../../src/sdk/index.js';

/**
 * Milliseconds per call of `fn`: the best of 7 rounds of `runs` calls, wall time on this
 * thread. The best round is what the code costs; the others are what the machine did
 * meanwhile (process.cpuUsage would also count the worker threads of other tests).
 */
function bestMs(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) fn();
    best = Math.min(best, (performance.now() - t0) / runs);
  }
  return best;
}

function refusedWith(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(DexRefusal);
    expect((err as DexRefusal).code).to.equal(code);
    return;
  }
  expect.fail('not refused');
}

const LONG = '2'.repeat(15_800); // the owner: a body just under the 16 KiB limit
const KEY = '11111111111111111111111111111112'; // 31 zero bytes and a 1: a valid 32-byte Base58 key
const order = (over: Record<string, unknown>) =>
  JSON.stringify({
    order_id: '1',
    owner: KEY,
    side: 'Buy',
    price: '1',
    quantity: '1',
    expiry: '0',
    base_mint: KEY,
    quote_mint: KEY,
    signature: '0'.repeat(128),
    ...over,
  });

describe('hostile: decodes are bounded by length first', () => {
  for (const field of ['owner', 'base_mint', 'quote_mint']) {
    it(`POST /orders with ${field} = '2' x 15,800 is refused (400 INVALID_FIELD) in under 1 ms`, () => {
      const body = order({ [field]: LONG });
      expect(body.length).to.be.lessThan(16 * 1024);
      refusedWith(() => parsePlaceOrder(JSON.parse(body)), 'INVALID_FIELD');
      const ms = bestMs(10, () => {
        try {
          parsePlaceOrder(JSON.parse(body));
        } catch {
          /* refused: measured */
        }
      });
      expect(ms, `${ms.toFixed(3)} ms per request`).to.be.lessThan(1);
    });
  }

  it('POST /orders/cancel and POST /markets refuse long Base58 the same way', () => {
    const cancel = JSON.stringify({
      order_id: '1',
      owner: LONG,
      market_id: '00000000-0000-8000-8000-000000000000',
      signature: '0'.repeat(128),
    });
    const market = JSON.stringify({ base_mint: LONG, quote_mint: LONG, name: 'X' });
    refusedWith(() => parseCancel(JSON.parse(cancel)), 'INVALID_FIELD');
    refusedWith(() => parseCreateMarket(JSON.parse(market)), 'INVALID_FIELD');
    const ms = bestMs(10, () => {
      for (const [parse, body] of [
        [parseCancel, cancel],
        [parseCreateMarket, market],
      ] as const) {
        try {
          parse(JSON.parse(body));
        } catch {
          /* refused */
        }
      }
    });
    expect(ms).to.be.lessThan(1);
  });

  it('Base58 keys of every wrong length (0..64 bytes but 32), and characters outside the alphabet, are refused', () => {
    for (let n = 0; n <= 64; n++) {
      if (n === 32) continue;
      const text = n === 0 ? '' : toBase58(new Uint8Array(n).fill(n));
      expect(() => fromBase58Key(text, 'owner'), `${n} bytes`).to.throw(TypeError, /owner/);
    }
    for (const bad of [
      `0${KEY.slice(1)}`,
      `O${KEY.slice(1)}`,
      `I${KEY.slice(1)}`,
      `l${KEY.slice(1)}`,
      `é${KEY.slice(2)}`,
      `😀${KEY.slice(2)}`,
      ` ${KEY}`,
      `${KEY}\n`,
      '1'.repeat(45),
    ]) {
      expect(() => fromBase58Key(bad, 'owner'), JSON.stringify(bad)).to.throw(TypeError);
    }
    expect(fromBase58Key(KEY).length).to.equal(32);
    const ms = bestMs(5, () => expect(() => fromBase58Key('z'.repeat(50_000))).to.throw(TypeError));
    expect(ms).to.be.lessThan(1);
  });

  it('the SDK reads receipts from a node without superlinear work on absurd fields', () => {
    const huge: Receipt = {
      order_id: '9'.repeat(1_000_000),
      owner: KEY,
      timestamp_ms: 1,
      sequencer_id: 'x'.repeat(100_000),
      merkle_root: '0'.repeat(1_000_000),
      sequencer_signature: '0'.repeat(1_000_000),
      tick_number: 1,
      continuum_sequence: '9'.repeat(1_000_000),
      tx_hash: '00'.repeat(32),
    };
    const verdict = verifyReceiptDetailed(huge, new Uint8Array(32));
    expect(verdict.valid).to.equal(false);
    expect(verdict.reason).to.match(/malformed receipt/);
    const ms = bestMs(5, () => verifyReceiptDetailed(huge, new Uint8Array(32)));
    expect(ms, `${ms.toFixed(3)} ms`).to.be.lessThan(1);
  });
});
