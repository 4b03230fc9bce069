/**
 * The order book's refusal codes and their HTTP statuses are stated once in code (HTTP_STATUS)
 * and once in the contract (docs/dex-api.md "Errors"): the two must say the same, code by code.
 * (The faces answering with them are tested from outside: test/dex/api/http.test.ts, test/hostile.)
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DexRefusal, HTTP_STATUS } from '../../src/dex/errors.js';

const DOC = readFileSync(new URL('../../../docs/dex-api.md', import.meta.url), 'utf8');

/** code -> status from the "Errors" table (a row may name two codes: `QUEUE_FULL` / `UNAVAILABLE`). */
function documented(): Map<string, number> {
  const section = DOC.slice(DOC.indexOf('## Errors'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|---')));
  const out = new Map<string, number>();
  for (const line of table.split('\n')) {
    const m = /^\| (\d{3}) \| (.+?) \|/.exec(line);
    if (!m) continue;
    for (const code of m[2]!.matchAll(/`([A-Z_]+)`/g)) out.set(code[1]!, Number(m[1]));
  }
  return out;
}

describe('order book refusal codes', () => {
  it('every code has the HTTP status docs/dex-api.md gives it, and the doc lists every code', () => {
    const doc = documented();
    expect(doc.size).to.be.greaterThan(20);
    for (const [code, status] of Object.entries(HTTP_STATUS)) expect(doc.get(code), code).to.equal(status);
    expect([...doc.keys()].sort()).to.deep.equal(Object.keys(HTTP_STATUS).sort());
  });

  it('a refusal carries its code and the status of its code, and no stack', () => {
    const r = new DexRefusal('ORDER_REPLAYED', 'order_id already used by this owner');
    expect(r.code).to.equal('ORDER_REPLAYED');
    expect(r.status).to.equal(409);
    expect(r.replay).to.equal(false);
    expect(r.stack ?? '').to.not.match(/\n\s+at /);
    expect(new DexRefusal('METHOD_NOT_ALLOWED', 'x').status).to.equal(405);
  });
});
