/**
 * Transaction proofs on the sequencer's faces while a proof is on its way (docs/proofs.md
 * "Endpoints", docs/sequencer.md "Order first, proof after"): a real sequencer (real
 * LevelDB, clock and pool, the pool's answers held back) behind the real REST and gRPC
 * faces, asked by node fetch, a grpc-js client and the real `svc tx prove` process. A
 * transaction still in the clock's tick answers 404 pending = false (the node cannot tell
 * yet); once its tick is ordered but not proven, 404 pending = true with Retry-After: 1
 * (gRPC found = false, pending = true) and `svc tx prove` exits 1 saying so, while
 * `svc tx prove --wait` waits and exits 0; once proven, the proof verifies.
 * Also: GetTransactionProof's request decoder and response encoder against protobufjs.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { bytesToHex } from '../../../src/crypto/hex.js';
import type { Tick } from '../../../src/core/types.js';
import { openDatabase } from '../../../src/db/index.js';
import { createPool } from '../../../src/pool/index.js';
import { buildInclusionProof, verifyInclusion } from '../../../src/proofs/index.js';
import { SEQUENCER_PROTO } from '../../../src/sequencer/api/client/index.js';
import { encodeGetTransactionProofResponse, encodeTick } from '../../../src/sequencer/api/grpc/encode.js';
import { decodeGetTransactionProofRequest, isMalformed } from '../../../src/sequencer/api/grpc/requests.js';
import { TickSequencer } from '../../../src/sequencer/sequencer.js';
import { restTick } from '../../../src/vdf/index.js';
import { PROTO_DIR } from '../../../src/wire/index.js';
import { svcProcess } from '../../cli/support.js';
import { tickVerifier } from '../../proofs/support/verifier.js';
import { FakeSequencer } from '../../support/fake-sequencer.js';
import { grpcFace, restFace } from '../../support/front-ends.js';
import { SequencerClient } from '../../support/grpc-client.js';
import { defaults, tx, waitFor } from '../harness.js';
import { heldPool } from '../proof-support.js';

const root = new protobuf.Root().loadSync(join(PROTO_DIR, SEQUENCER_PROTO), { keepCase: true });
const T = (name: string) => root.lookupType(`svc.sequencer.v1.${name}`);
const hexBytes = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');

describe('GetTransactionProof codec vs protobufjs', () => {
  it('the request decoder reads what protobufjs writes and refuses malformed bytes without throwing', () => {
    for (const h of ['', 'abcd1234', 'ABCD1234', 'f'.repeat(64), 'not a hash']) {
      const bytes = T('GetTransactionProofRequest').encode({ tx_hash: h }).finish();
      expect(decodeGetTransactionProofRequest(bytes)).to.deep.equal({ txHash: h });
    }
    for (const bad of ['0a', '0a 05 3132', '08 01', '0f 00', '00 01', '0a 02 ff fe', 'ffffffffff']) {
      const d = decodeGetTransactionProofRequest(hexBytes(bad));
      expect(isMalformed(d), bad).to.equal(true);
      if (isMalformed(d)) expect(d.malformed).to.match(/^malformed GetTransactionProofRequest: /);
    }
    // Unknown fields are skipped; the last tx_hash wins.
    expect(decodeGetTransactionProofRequest(hexBytes('1001 0a0161 0a023132'))).to.deep.equal({ txHash: '12' });
  });

  it('the response encoder writes what protobufjs reads: a proof with its Tick, pending, candidates', async () => {
    const fake = new FakeSequencer();
    for (let i = 0; i < 5; i++)
      await fake.submit({
        txId: `codec-${i}`,
        payload: new Uint8Array(i),
        signature: new Uint8Array(0),
        publicKey: new Uint8Array(0),
        nonce: BigInt(i),
        timestamp: 1n,
      });
    const tick = fake.closeTick();
    const proof = buildInclusionProof(tick, 3, restTick(tick, false));
    const found = T('GetTransactionProofResponse').toObject(
      T('GetTransactionProofResponse').decode(
        encodeGetTransactionProofResponse({ found: true, proof, encodedTick: encodeTick(tick) }),
      ),
      { longs: String, defaults: true },
    );
    expect(found.found).to.equal(true);
    expect(found.pending).to.equal(false);
    expect(found.candidates).to.deep.equal([]);
    const { tick: wireTick, ...rest } = found.proof as Record<string, unknown>;
    expect(rest).to.deep.equal({
      tick_number: '1',
      index: 3,
      transaction_count: 5,
      tx: proof.tx,
      audit_path: proof.audit_path,
      batch_hash: proof.batch_hash,
    });
    const direct = T('Tick').toObject(T('Tick').decode(encodeTick(tick)), { longs: String, defaults: true });
    expect(wireTick).to.deep.equal(direct);
    const first = buildInclusionProof(tick, 0, restTick(tick, false));
    const atZero = T('GetTransactionProofResponse').toObject(
      T('GetTransactionProofResponse').decode(
        encodeGetTransactionProofResponse({ found: true, proof: first, encodedTick: encodeTick(tick) }),
      ),
      { longs: String, defaults: true },
    );
    expect((atZero.proof as { index: number }).index).to.equal(0);
    const pending = T('GetTransactionProofResponse').toObject(
      T('GetTransactionProofResponse').decode(
        encodeGetTransactionProofResponse({ found: false, pending: true, candidates: [] }),
      ),
      { longs: String, defaults: true },
    );
    expect(pending).to.deep.equal({ found: false, pending: true, proof: null, candidates: [] });
    const candidates = [
      { txHash: 'a'.repeat(64), tickNumber: 3, sequenceNumber: 7 },
      { txHash: 'b'.repeat(64), tickNumber: 2 ** 53 - 1, sequenceNumber: 2 ** 40 },
    ];
    const ambiguous = T('GetTransactionProofResponse').toObject(
      T('GetTransactionProofResponse').decode(
        encodeGetTransactionProofResponse({ found: false, pending: false, candidates }),
      ),
      { longs: String, defaults: true },
    );
    expect(ambiguous.candidates).to.deep.equal([
      { tx_hash: 'a'.repeat(64), tick_number: '3', sequence_number: '7' },
      { tx_hash: 'b'.repeat(64), tick_number: '9007199254740991', sequence_number: '1099511627776' },
    ]);
  });
});

describe('transaction proofs on the faces over the test double: store failures and methods', () => {
  it('a failing store read answers REST 500 and gRPC INTERNAL without its details; POST answers 405', async () => {
    const fake = new FakeSequencer();
    await fake.submit({
      txId: 'fail-1',
      payload: new Uint8Array(3),
      signature: new Uint8Array(0),
      publicKey: new Uint8Array(0),
      nonce: 1n,
      timestamp: 1n,
    });
    fake.closeTick();
    const short = bytesToHex(fake.ticks[0]!.transactions[0]!.txHash).slice(0, 8);
    const rest = await restFace(fake);
    const grpcF = await grpcFace(fake);
    const client = new SequencerClient(grpcF.address);
    try {
      const ok = await fetch(`http://${rest.address}/api/v1/tx/${short}/proof`);
      expect(ok.status).to.equal(200);
      fake.failNextRead = true;
      const failed = await fetch(`http://${rest.address}/api/v1/tx/${short}/proof`);
      expect(failed.status).to.equal(500);
      expect(await failed.json()).to.deep.equal({ error: 'internal server error' });
      fake.failNextRead = true;
      let code: number | undefined;
      let details = '';
      try {
        await client.call('GetTransactionProof', { tx_hash: short });
      } catch (err) {
        ({ code, details } = err as { code: number; details: string });
      }
      expect(code).to.equal(13); // INTERNAL
      expect(details).to.equal('internal error in GetTransactionProof');
      const post = await fetch(`http://${rest.address}/api/v1/tx/${short}/proof`, { method: 'POST' });
      expect(post.status).to.equal(405);
    } finally {
      client.close();
      await grpcF.close();
      await rest.close();
    }
  });
});

describe('transaction proofs while the proof is on its way (real sequencer, proofs held back)', function () {
  this.timeout(120_000);

  it('queued: 404 pending=false; ordered, unproven: 404 pending=true + Retry-After, CLI exit 1 (and --wait exit 0); proven: 200 and it verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-proof-pending-'));
    const db = await openDatabase(dir);
    const realPool = createPool({ threads: 1 });
    // A busy tick of 150,000 squarings (~1 s here) keeps a transaction in the clock; proofs wait
    // until step 3 releases them (a fixed delay ran out under load before step 2 was done).
    const held = heldPool(realPool);
    const seq = new TickSequencer({
      ...defaults,
      vdfIterations: 150_000,
      idleTickMs: 100,
      db,
      pool: held.pool,
    });
    await seq.start();
    const rest = await restFace(seq);
    const grpcF = await grpcFace(seq);
    const client = new SequencerClient(grpcF.address);
    const base = `http://${rest.address}`;
    try {
      const orderedSeqs = new Set<number>();
      const fullHashes = new Map<number, string>();
      seq.orderedTicks().onTick((t: Tick) =>
        t.transactions.forEach((o) => {
          orderedSeqs.add(o.sequenceNumber);
          fullHashes.set(o.sequenceNumber, bytesToHex(o.txHash));
        }),
      );
      await waitFor(() => seq.orderedTicks().status().currentTick >= 1, 'the first heartbeat ordered');
      const r = await seq.submit(tx());
      const hash = r.txHash;
      const get = async (h: string) => {
        const res = await fetch(`${base}/api/v1/tx/${h}/proof`);
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as Record<string, unknown>,
        };
      };

      // 1. In the clock's running tick: the node holds it only in its queue, and cannot tell.
      const queued = await get(hash);
      const queuedGrpc = await client.call<{ found: boolean; pending: boolean }>('GetTransactionProof', {
        tx_hash: hash,
      });
      expect(orderedSeqs.has(r.sequenceNumber), 'still in the clock when asked (the busy tick takes ~1 s)').to.equal(
        false,
      );
      expect(queued.status).to.equal(404);
      expect(queued.body).to.deep.equal({
        error: `no transaction with hash ${hash} in a proven tick`,
        found: false,
        pending: false,
      });
      expect(queuedGrpc).to.include({ found: false, pending: false });

      // 2. Ordered, its proof (or an earlier tick's) held back: pending.
      await waitFor(() => orderedSeqs.has(r.sequenceNumber), 'the transaction ordered', 30_000);
      const waiting = svcProcess(['tx', 'prove', hash, '--wait', '--json', '--rest-url', base]);
      const pending = await get(hash);
      expect(pending.status).to.equal(404);
      expect(pending.retryAfter).to.equal('1');
      expect(pending.body).to.deep.equal({
        error: `transaction ${hash} is not yet in a proven tick; retry shortly`,
        found: false,
        pending: true,
      });
      const pendingGrpc = await client.call<{
        found: boolean;
        pending: boolean;
        proof: unknown;
        candidates: unknown[];
      }>('GetTransactionProof', { tx_hash: hash });
      expect(pendingGrpc).to.deep.equal({ found: false, pending: true, proof: null, candidates: [] });
      const other = await get(hash === '00000000' ? '00000001' : '00000000');
      expect(other.body.pending).to.equal(false);
      const cli = await svcProcess(['tx', 'prove', hash, '--rest-url', base]);
      expect(
        (await get(hash)).body.pending,
        'still pending after the CLI ran (proofs are held back until step 3)',
      ).to.equal(true);
      expect(cli.code, cli.err).to.equal(1);
      expect(cli.err.trim()).to.equal(
        `svc tx prove: transaction ${hash} is not yet in a proven tick on ${base}; retry shortly (or give --wait)`,
      );
      const fullPending = await get(fullHashes.get(r.sequenceNumber)!);
      expect(fullPending.status).to.equal(404);
      expect(fullPending.body.pending).to.equal(true);

      // 3. Proven: the proof verifies, and the waiting CLI got it.
      held.release();
      await waitFor(async () => (await get(hash)).status === 200, 'the proof served', 60_000);
      const proof = (await get(hash)).body;
      const verdict = verifyInclusion(proof, { tickVerifier: await tickVerifier(), expectedHash: hash });
      expect(verdict.ok, JSON.stringify(verdict)).to.equal(true);
      const waited = await waiting;
      expect(waited.code, waited.err).to.equal(0);
      expect(JSON.parse(waited.out)).to.include({ ok: true, sequence_number: r.sequenceNumber });
      const provenGrpc = await client.call<{ found: boolean; pending: boolean }>('GetTransactionProof', {
        tx_hash: hash,
      });
      expect(provenGrpc).to.include({ found: true, pending: false });
    } finally {
      held.release(); // a failure before step 3 must not leave the stop waiting for proofs
      client.close();
      await grpcF.close();
      await rest.close();
      await seq.stop();
      await db.close();
      await realPool.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
