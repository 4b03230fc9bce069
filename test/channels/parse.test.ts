/**
 * The channels' message parser against bad input (docs/chain.md "Channels"): every refusal
 * has its documented code and the id when one was usable; random and huge inputs never make
 * it throw.
 */
import { expect } from 'chai';
import { parseClientMessage } from '../../src/channels/index.js';
import { toBase58Key } from '../../src/crypto/base58.js';

const OWNER = toBase58Key(new Uint8Array(32).fill(7));
const MARKET = '0123abcd-0000-4000-8000-00000000beef';

function refusal(text: string): { code: string; id: unknown } {
  const p = parseClientMessage(text);
  if (p.ok) throw new Error(`accepted: ${text}`);
  return { code: p.code, id: p.id };
}

describe('channels: parser', () => {
  it('accepts the documented requests', () => {
    expect(parseClientMessage('{"op":"subscribe","id":"a","channel":"blocks"}')).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', id: 'a', channel: 'blocks' },
    });
    expect(parseClientMessage('{"op":"subscribe","id":7,"channel":"blocks","from_height":12}')).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', id: 7, channel: 'blocks', fromHeight: 12 },
    });
    expect(
      parseClientMessage(`{"op":"subscribe","id":"o","channel":"orders","owner":"${OWNER}","from_sequence":1}`),
    ).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', id: 'o', channel: 'orders', owner: OWNER, fromSequence: 1 },
    });
    expect(parseClientMessage(`{"op":"subscribe","id":"b","channel":"book","market_id":"${MARKET}"}`)).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', id: 'b', channel: 'book', marketId: MARKET },
    });
    expect(parseClientMessage('{"op":"unsubscribe","id":"b"}')).to.deep.equal({
      ok: true,
      request: { op: 'unsubscribe', id: 'b' },
    });
  });

  it('refuses malformed JSON and non-objects', () => {
    for (const t of ['', '{', 'null', 'nul', '[]', '"subscribe"', '42', '{"op":"subscribe",}', '\u0000']) {
      const r = refusal(t);
      expect(['malformed_json', 'bad_message']).to.include(r.code, t);
      expect(r.id).to.equal(null);
    }
    expect(refusal('{').code).to.equal('malformed_json');
    expect(refusal('[1]').code).to.equal('bad_message');
  });

  it('refuses a missing or unusable id', () => {
    for (const id of [
      '',
      '"x y"',
      '"é"',
      `"${'a'.repeat(65)}"`,
      '-1',
      '1.5',
      '9007199254740992',
      'null',
      '{}',
      'true',
    ]) {
      const r = refusal(`{"op":"subscribe","channel":"blocks"${id === '' ? '' : `,"id":${id}`}}`);
      expect(r.code, id).to.equal('bad_message');
    }
  });

  it('refuses unknown ops, unknown channels and unknown fields, naming the id', () => {
    expect(refusal('{"op":"subscribe_all","id":"a"}')).to.deep.equal({ code: 'unknown_op', id: 'a' });
    expect(refusal('{"id":"a"}')).to.deep.equal({ code: 'unknown_op', id: 'a' });
    expect(refusal('{"op":"subscribe","id":"a","channel":"trades"}')).to.deep.equal({
      code: 'unknown_channel',
      id: 'a',
    });
    expect(refusal('{"op":"subscribe","id":"a"}')).to.deep.equal({ code: 'unknown_channel', id: 'a' });
    expect(refusal('{"op":"subscribe","id":"a","channel":"blocks","from":1}')).to.deep.equal({
      code: 'bad_message',
      id: 'a',
    });
    expect(refusal('{"op":"subscribe","id":"a","channel":"blocks","owner":"x"}')).to.deep.equal({
      code: 'bad_message',
      id: 'a',
    });
    expect(refusal('{"op":"unsubscribe","id":"a","channel":"blocks"}')).to.deep.equal({ code: 'bad_message', id: 'a' });
  });

  it('refuses absurd positions: negative, zero, non-integer, strings, beyond 2^53-1', () => {
    const cases: Array<[string, string]> = [
      ['-1', 'out_of_range'],
      ['0', 'out_of_range'],
      ['1.5', 'bad_param'],
      ['"5"', 'bad_param'],
      ['null', 'bad_param'],
      ['9007199254740992', 'out_of_range'],
      ['1e300', 'out_of_range'],
      ['18446744073709551616', 'out_of_range'],
      ['[1]', 'bad_param'],
    ];
    for (const [v, code] of cases) {
      expect(
        refusal(`{"op":"subscribe","id":1,"channel":"blocks","from_height":${v}}`).code,
        `from_height ${v}`,
      ).to.equal(code);
      expect(
        refusal(`{"op":"subscribe","id":1,"channel":"orders","owner":"${OWNER}","from_sequence":${v}}`).code,
        `from_sequence ${v}`,
      ).to.equal(code);
    }
    expect(
      parseClientMessage('{"op":"subscribe","id":1,"channel":"blocks","from_height":9007199254740991}').ok,
    ).to.equal(true);
  });

  it('refuses malformed owners and market ids (an unknown but well-formed owner is fine)', () => {
    for (const owner of ['', 'abc', `0OIl${'A'.repeat(40)}`, 'A'.repeat(45), '1'.repeat(44), 7, null]) {
      expect(
        refusal(`{"op":"subscribe","id":1,"channel":"orders","owner":${JSON.stringify(owner)}}`).code,
        String(owner),
      ).to.equal('bad_param');
    }
    expect(refusal('{"op":"subscribe","id":1,"channel":"orders"}').code).to.equal('bad_param');
    for (const m of [MARKET.toUpperCase(), MARKET.slice(1), `${MARKET} `, '', 5]) {
      expect(refusal(`{"op":"subscribe","id":1,"channel":"book","market_id":${JSON.stringify(m)}}`).code).to.equal(
        'bad_param',
      );
    }
    const stranger = toBase58Key(new Uint8Array(32).fill(200));
    expect(parseClientMessage(`{"op":"subscribe","id":1,"channel":"orders","owner":"${stranger}"}`).ok).to.equal(true);
  });

  it('never throws on random bytes, deep nesting or huge numbers', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"op"',
      ':',
      ',',
      '"subscribe"',
      '"id"',
      '1',
      '"channel"',
      '"blocks"',
      '"from_height"',
      '-',
      'e999',
      '"\\u0000"',
      'true',
      'null',
    ];
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      const n = Math.floor(rnd() * 20);
      for (let j = 0; j < n; j++) t += pieces[Math.floor(rnd() * pieces.length)];
      expect(() => parseClientMessage(t)).not.to.throw();
    }
    expect(parseClientMessage('['.repeat(100_000)).ok).to.equal(false);
    expect(
      parseClientMessage(`{"op":"subscribe","id":1,"channel":"blocks","from_height":1${'0'.repeat(4000)}}`).ok,
    ).to.equal(false);
  });
});
