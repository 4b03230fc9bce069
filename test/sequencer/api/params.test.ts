/** Pure parameter parsers shared by REST and gRPC: every bad form named in the issue. */
import { expect } from 'chai';
import { checkTickNumber, parseTickNumberText, parseTxHash } from '../../../src/sequencer/api/params.js';
import { parseIntegerParam } from '../../../src/wire/index.js';

describe('request parameter parsers', () => {
  it('accepts tick numbers 1..2^53-1', () => {
    expect(parseTickNumberText('1')).to.deep.equal({ ok: true, value: 1 });
    expect(parseTickNumberText(String(Number.MAX_SAFE_INTEGER))).to.deep.equal({
      ok: true,
      value: Number.MAX_SAFE_INTEGER,
    });
    expect(checkTickNumber('000042')).to.deep.equal({ ok: true, value: 42 });
  });
  for (const bad of ['0', '-1', '1.5', '1e3', 'abc', '', ' 1', '0x10', '9007199254740992', '99999999999999999999999']) {
    it(`refuses tick number '${bad}'`, () => {
      const r = parseTickNumberText(bad);
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error).to.match(/tick number/);
    });
  }
  it('accepts 8-hex hashes in either case and lowercases them', () => {
    expect(parseTxHash('DEADbeef')).to.deep.equal({ ok: true, value: 'deadbeef' });
  });
  for (const [bad, why] of [
    ['abc', /8 hexadecimal/],
    ['123456789', /8 hexadecimal/],
    ['zzzzzzzz', /hexadecimal/],
    ['0x123456', /hexadecimal/],
    ['', /8 hex/],
  ] as const) {
    it(`refuses hash '${bad}'`, () => {
      const r = parseTxHash(bad);
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error).to.match(why);
    });
  }
  it('parses limit/offset with defaults and ranges', () => {
    expect(parseIntegerParam('limit', undefined, 20, 1, 100)).to.deep.equal({ ok: true, value: 20 });
    expect(parseIntegerParam('limit', '100', 20, 1, 100)).to.deep.equal({ ok: true, value: 100 });
    for (const bad of ['0', '101', '-1', 'ten', '1.5', '', '1e2']) {
      expect(parseIntegerParam('limit', bad, 20, 1, 100).ok, bad).to.equal(false);
    }
    expect(parseIntegerParam('limit', ['1', '2'], 20, 1, 100).ok).to.equal(false);
  });
});
