import { expect } from 'chai';
import { openApiDocument } from '../../../src/dex/api/openapi.js';
import { get, startTestDex, type TestDex } from '../support/server.js';

describe('dex OpenAPI document', () => {
  let t: TestDex;
  before(async () => {
    t = await startTestDex();
  });
  after(async () => t.close());

  it('answers CORS preflights and allows any origin (no ambient credentials exist)', async () => {
    const pre = await fetch(`${t.url}/orders`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
    expect(pre.headers.get('access-control-allow-methods')).to.contain('POST');
    const res = await fetch(`${t.url}/health`, { headers: { origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('is served at /openapi.json and lists every route the server answers', async () => {
    const r = await get(`${t.url}/openapi.json`);
    expect(r.status).to.equal(200);
    expect(r.json.openapi).to.match(/^3\./);
    const paths = Object.keys(r.json.paths as object).sort();
    expect(paths).to.deep.equal([
      '/health',
      '/markets',
      '/markets/{market_id}/orderbook',
      '/markets/{market_id}/trades',
      '/openapi.json',
      '/orders',
      '/orders/batch',
      '/orders/cancel',
      '/orders/cancel-all',
    ]);
    // Each documented GET route exists (no 404 NOT_FOUND from the router).
    for (const p of paths) {
      const doc = (openApiDocument.paths as Record<string, Record<string, unknown>>)[p]!;
      if (!doc.get) continue;
      const res = await fetch(t.url + p.replace('{market_id}', '00000000-0000-4000-8000-000000000000'));
      const body = (await res.json()) as { code?: string };
      expect(body.code, p).to.not.equal('NOT_FOUND');
    }
  });
});
