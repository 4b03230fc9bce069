/**
 * The order entry's fair share (src/dex/fair-share.ts), as plain bookkeeping. (The gRPC
 * server's client-cancel budget is tested beside its code, in test/wire/http2-guard.test.ts.)
 */
import { expect } from 'chai';
import { FairShare } from '../../src/dex/fair-share.js';

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
});
