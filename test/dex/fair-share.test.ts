/**
 * The order entry's fair share (src/dex/fair-share.ts) and the gRPC server's client-cancel
 * budget (src/wire/http2-guard.ts), as plain bookkeeping.
 */
import { expect } from 'chai';
import { FairShare } from '../../src/dex/fair-share.js';
import { RESET_BURST, RESET_RATE_PER_S, RESET_RESERVE, ResetBudget } from '../../src/wire/http2-guard.js';

describe('shedding bookkeeping', () => {
  it('a lone address may hold the whole bound; a second address is taken while the first holds it all', () => {
    const s = new FairShare(8);
    for (let i = 0; i < 8; i++) expect(s.enter('10.0.0.1')).to.equal(true);
    expect(s.enter('10.0.0.1')).to.equal(false);
    // Another address is under its share (8 / 2 = 4): taken although the total is reached.
    expect(s.enter('10.0.0.2')).to.equal(true);
    // The first is now above its share of 4: refused until it drops under it.
    s.leave('10.0.0.1');
    expect(s.enter('10.0.0.1')).to.equal(false);
    for (let i = 0; i < 4; i++) s.leave('10.0.0.1');
    expect(s.held('10.0.0.1')).to.equal(3);
    expect(s.enter('10.0.0.1')).to.equal(true);
    expect(s.pending).to.equal(5);
  });

  it('shares max(1, floor(bound / addresses)): with more addresses than the bound each still gets one', () => {
    const s = new FairShare(4);
    for (let a = 0; a < 10; a++) expect(s.enter(`10.0.1.${a}`)).to.equal(true);
    expect(s.enter('10.0.1.0')).to.equal(false);
    expect(s.shareFor('10.0.2.1')).to.equal(1);
    for (let a = 0; a < 10; a++) s.leave(`10.0.1.${a}`);
    expect(s.pending).to.equal(0);
    expect(s.shareFor('10.0.2.1')).to.equal(4);
  });

  it("the reset budget runs out before nghttp2's (1,000, 33 a second), and refills at its rate", () => {
    const b = new ResetBudget(0);
    let n = 0;
    while (!b.reset(0)) n++;
    expect(n + 1).to.equal(RESET_BURST - RESET_RESERVE);
    const c = new ResetBudget(0);
    for (let i = 0; i < 800; i++) c.reset(0);
    // 10 s later 330 came back: 200 + 330 = 530 left, well above the reserve.
    let m = 0;
    while (!c.reset(10)) m++;
    expect(m + 1).to.equal(Math.min(RESET_BURST, 200 + 10 * RESET_RATE_PER_S) - RESET_RESERVE);
  });
});
