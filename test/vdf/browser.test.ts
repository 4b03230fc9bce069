/**
 * The standalone browser verifier in a real headless Chromium (Debian's chromium driven
 * by playwright-core): dist/browser/svc-vdf.js + .wasm served from a local HTTP server,
 * verifying the test vectors as REST tick JSON (one by one, as a chained batch, and as
 * lookup answers) and rejecting a tampered tick, a broken chain and malformed JSON.
 * Needs `npm run build` (the bundle) and a Chromium (test/support/tools.ts finds it).
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/tools.js';
import type { VdfVectorFile } from '../../src/vdf/vectors.js';
import type { Tick, Transaction } from '../../src/core/types.js';
import { transactionHash } from '../../src/core/tx-hash.js';
import { merkleRoot } from '../../src/crypto/merkle.js';
import { restTick } from '../../src/vdf/index.js';
import { encodeJson as toJson } from '../../src/wire/index.js';
import { headerOfTick } from '../../src/vdf/binding.js';
import { GENESIS_OUTPUT, loadVdfEngine } from '../../src/vdf/index.js';

const root = (p: string): string => fileURLToPath(new URL(`../../../${p}`, import.meta.url));
const vectors = JSON.parse(readFileSync(root('docs/vdf-vectors.json'), 'utf8')) as VdfVectorFile;

const restTicks = vectors.vectors.map((v) => ({
  tick_number: v.tick_number,
  timestamp: v.timestamp,
  first_sequence: v.first_sequence,
  transaction_count: v.transaction_count,
  transaction_batch_hash: v.batch_hash,
  ingestion_digest: v.ingestion_digest,
  vdf_iterations: v.iterations,
  previous_output: v.previous_output,
  vdf_proof: { input: v.input, output: v.output, proof: v.proof, iterations: v.iterations },
}));

const PAGE = `<!doctype html><meta charset="utf-8"><title>svc vdf</title>
<script type="module">
  import * as svc from './svc-vdf.js';
  window.svcVerifier = await svc.createVerifier(new URL('./svc-vdf.wasm', import.meta.url));
  window.svcReady = true;
</script>`;

describe('vdf: browser verifier in headless Chromium', function () {
  this.timeout(120000);
  let server: Server;
  let browser: Browser;
  let base = '';

  before(async () => {
    for (const f of ['dist/browser/svc-vdf.js', 'dist/browser/svc-vdf.wasm']) {
      if (!existsSync(root(f))) throw new Error(`${f} missing: run npm run build`);
    }
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      const files: Record<string, [string, string]> = {
        '/svc-vdf.js': ['dist/browser/svc-vdf.js', 'text/javascript'],
        '/svc-vdf.wasm': ['dist/browser/svc-vdf.wasm', 'application/wasm'],
      };
      if (url === '/' || url === '/index.html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      } else if (files[url]) {
        res.writeHead(200, { 'content-type': files[url][1] }).end(readFileSync(root(files[url][0])));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('verifies every vector, the chained batch and lookups; rejects tampered, broken and malformed ticks', async () => {
    const page = await browser.newPage();
    const logs: string[] = [];
    page.on('console', (m) => logs.push(m.text()));
    page.on('pageerror', (e) => logs.push(String(e)));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (window as unknown as { svcReady?: boolean }).svcReady === true, null, {
      timeout: 30000,
    });
    const result = await page.evaluate((ticks) => {
      type Verdict = { ok: boolean; code?: string; tickNumber: number | null };
      type V = {
        verifyTick(j: unknown): Verdict;
        verifyTicks(j: unknown[]): { ok: boolean; invalid: number[]; ticks: Verdict[] };
      };
      const v = (window as unknown as { svcVerifier: V }).svcVerifier;
      const flip = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
      const single = ticks.map((t) => v.verifyTick(t).ok);
      const lookups = ticks.map((t) => v.verifyTick({ tick_number: t.tick_number, found: true, tick: t }).ok);
      const batch = v.verifyTicks(ticks);
      const tamperedOutput = { ...ticks[7], vdf_proof: { ...ticks[7].vdf_proof, output: ticks[6].vdf_proof.output } };
      const tamperedProof = {
        ...ticks[8],
        vdf_proof: { ...ticks[8].vdf_proof, proof: flip(ticks[8].vdf_proof.proof) },
      };
      const trivialTamper = { ...ticks[2], vdf_proof: { ...ticks[2].vdf_proof, output: ticks[1].vdf_proof.output } };
      const brokenChain = ticks.slice();
      brokenChain[4] = { ...ticks[4], previous_output: ticks[2].vdf_proof.output };
      return {
        single,
        lookups,
        batch,
        tamperedOutput: v.verifyTick(tamperedOutput),
        tamperedProof: v.verifyTick(tamperedProof),
        trivialTamper: v.verifyTick(trivialTamper),
        tamperedInBatch: v.verifyTicks([...ticks.slice(0, 7), tamperedOutput, ticks[8]]).invalid,
        brokenChain: v.verifyTicks(brokenChain).ticks[4].code,
        notFound: v.verifyTick({ tick_number: 5, found: false }).code,
        badHex: v.verifyTick({ ...ticks[0], previous_output: `zz${ticks[0].previous_output.slice(2)}` }).code,
        short: v.verifyTick({
          ...ticks[0],
          vdf_proof: { ...ticks[0].vdf_proof, proof: ticks[0].vdf_proof.proof.slice(2) },
        }).code,
        mismatchT: v.verifyTick({ ...ticks[0], vdf_iterations: 2 }).code,
        notObject: v.verifyTick('hello').code,
      };
    }, restTicks);
    expect(logs.filter((l) => /error/i.test(l))).to.deep.equal([]);
    expect(result.single).to.deep.equal(restTicks.map(() => true));
    expect(result.lookups).to.deep.equal(restTicks.map(() => true));
    expect(result.batch.ok).to.equal(true);
    expect(result.batch.invalid).to.deep.equal([]);
    expect(result.tamperedOutput).to.deep.include({ ok: false, code: 'INVALID_PROOF', tickNumber: 8 });
    expect(result.tamperedProof.ok).to.equal(false);
    expect(result.trivialTamper).to.deep.include({ ok: false, code: 'INVALID_PROOF' });
    expect(result.tamperedInBatch).to.deep.equal([7, 8]); // 7 is bad; 8 no longer chains onto it
    expect(result.brokenChain).to.equal('CHAIN_BREAK');
    expect(result.notFound).to.equal('BAD_TICK_JSON');
    expect(result.badHex).to.equal('BAD_HEX');
    expect(result.short).to.equal('BAD_LENGTH');
    expect(result.mismatchT).to.equal('BAD_TICK_JSON');
    expect(result.notObject).to.equal('BAD_TICK_JSON');
    await page.close();
  });
  it('with ?transactions=true a tick is checked down to its transactions: Borsh hashes, batch hash, ingestion digest', async () => {
    // A real v2 tick (tick 1 from genesis) carrying two transactions, one with a nonce above 2^53.
    const engine = loadVdfEngine();
    const txs: Transaction[] = [
      {
        txId: 'browser-1',
        payload: new Uint8Array([1, 2, 3]),
        signature: new Uint8Array(64).fill(9),
        publicKey: new Uint8Array(32).fill(4),
        nonce: 2n ** 60n + 7n,
        timestamp: 5n,
      },
      {
        txId: 'browser-2 ✓',
        payload: new Uint8Array(0),
        signature: new Uint8Array(0),
        publicKey: new Uint8Array(0),
        nonce: 1n,
        timestamp: 2n ** 63n,
      },
    ];
    const timestamp = 1_767_225_600_000_000;
    const transactions = txs.map((transaction, i) => ({
      transaction,
      sequenceNumber: 41 + i,
      txHash: transactionHash(transaction),
      ingestionTimestamp: timestamp - 20 + i,
    }));
    const batchHash = merkleRoot(transactions.map((o) => o.txHash));
    const header = headerOfTick({ tickNumber: 1, timestamp, batchHash, transactions });
    const input = engine.hashToGroup(1, GENESIS_OUTPUT, header);
    const output = engine.evaluate(input, 20);
    const tick: Tick = {
      tickNumber: 1,
      timestamp,
      batchHash,
      transactions,
      previousOutput: GENESIS_OUTPUT,
      vdfProof: { input, output, proof: engine.prove(input, output, 20), iterations: 20 },
    };
    const served = JSON.parse(toJson(restTick(tick, true)));
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (window as unknown as { svcReady?: boolean }).svcReady === true, null, {
      timeout: 30000,
    });
    const result = await page.evaluate((json) => {
      type Verdict = { ok: boolean; code?: string; message?: string };
      const v = (window as unknown as { svcVerifier: { verifyTick(j: unknown): Verdict } }).svcVerifier;
      const t = json.tick;
      const tx = (i: number, over: object) => ({
        ...json,
        tick: { ...t, transactions: t.transactions.map((o: object, k: number) => (k === i ? { ...o, ...over } : o)) },
      });
      const { transactions: _omit, ...bare } = t;
      return {
        ok: v.verifyTick(json),
        bare: v.verifyTick({ ...json, tick: bare }),
        payload: v.verifyTick(tx(0, { payload: 'ff' })),
        nonce: v.verifyTick(tx(0, { nonce: '1152921504606846984' })), // 2^60 + 8: exact u64 strings matter
        ingestion: v.verifyTick(tx(1, { ingestion_timestamp: t.transactions[1].ingestion_timestamp - 1 })),
        batch: v.verifyTick({ ...json, tick: { ...t, transaction_batch_hash: 'ab'.repeat(32) } }),
        time: v.verifyTick({ ...json, tick: { ...bare, timestamp: t.timestamp + 1 } }),
      };
    }, served);
    expect(result.ok).to.deep.include({ ok: true });
    expect(result.bare).to.deep.include({ ok: true });
    expect(result.payload).to.deep.include({ ok: false, code: 'BAD_TICK_JSON' });
    expect(result.payload.message).to.match(/do not hash to its tx_hash/);
    expect(result.nonce.message).to.match(/do not hash to its tx_hash/);
    expect(result.ingestion.message).to.match(/ingestion_digest does not match/);
    expect(result.batch.message).to.match(/transaction_batch_hash is not the Merkle root/);
    expect(result.time).to.deep.include({ ok: false, code: 'INVALID_PROOF' });
    await page.close();
  });
});
