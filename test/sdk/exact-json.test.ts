/**
 * parseExactJson (src/sdk/exact-json.ts): u64 values above 2^53 come back exact as bigints,
 * safe integers as numbers, digits inside strings and non-integers untouched, bad JSON
 * refused like JSON.parse.
 */
import { expect } from 'chai';
import { parseExactJson } from '../../src/sdk/index.js';

describe('sdk parseExactJson', () => {
  it('keeps every integer exact: safe ones as numbers, larger ones as bigints', () => {
    const v = parseExactJson(
      '{"a":18446744073709551615,"b":9007199254740991,"c":9007199254740993,"d":[-9223372036854775808,1.5,2e30],"s":"12345678901234567890","n":null}',
    );
    expect(v).to.deep.equal({
      a: 18446744073709551615n,
      b: 9007199254740991,
      c: 9007199254740993n,
      d: [-9223372036854775808n, 1.5, 2e30],
      s: '12345678901234567890',
      n: null,
    });
  });
  it('handles escaped quotes in strings and refuses text that is not JSON', () => {
    expect(parseExactJson('["a\\"12345678901234567890", 12345678901234567890]')).to.deep.equal([
      'a"12345678901234567890',
      12345678901234567890n,
    ]);
    expect(() => parseExactJson('{"a":}')).to.throw(SyntaxError);
    expect(() => parseExactJson('{"a":12345678901234567890')).to.throw(SyntaxError);
  });
});
