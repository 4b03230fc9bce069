/**
 * The gRPC server's client-cancel budget (src/wire/http2-guard.ts), as plain bookkeeping:
 * ResetBudget counts a connection's client resets in nghttp2's terms and says when to close
 * the connection, before nghttp2's own limit would drop it. What the guard then does to a
 * real connection is tested end to end in test/sequencer/api/goaway.test.ts.
 */
import { expect } from 'chai';
import { RESET_BURST, RESET_RATE_PER_S, RESET_RESERVE, ResetBudget } from '../../src/wire/http2-guard.js';

describe('HTTP/2 guard: the reset budget', () => {
  it("the reset budget runs out before nghttp2's (1,000, 33 a second), and refills at its rate", () => {
    const b = new ResetBudget(0);
    let n = 0;
    while (!b.reset(0)) n++;
    expect(n + 1).to.equal(RESET_BURST - RESET_RESERVE);
    const c = new ResetBudget(0);
    for (let i = 0; i < 800; i++) c.reset(0);
    // 10 s later 330 came back: 200 + 330 = 530 left, above the reserve.
    let m = 0;
    while (!c.reset(10)) m++;
    expect(m + 1).to.equal(Math.min(RESET_BURST, 200 + 10 * RESET_RATE_PER_S) - RESET_RESERVE);
  });
});
