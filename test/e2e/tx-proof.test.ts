/**
 * Transaction inclusion proofs end to end against the real node (`svc node` on port 0),
 * through real clients: REST GET /api/v1/tx/{hash}/proof (node fetch and raw HTTP), gRPC
 * GetTransactionProof (a grpc-js client built from the .proto, and raw bytes), the SDK's
 * TransactionProofClient, and `svc tx prove` for an ambiguous hash. Every proof of
 * batches of 1, 3 and 5 verifies down to its tick's VDF proof; the proof's tick is byte
 * for byte what GET /api/v1/tick/{n} serves; a short hash two transactions share answers
 * 409 with both candidates (each provable by its full hash); unknown and malformed hashes
 * and malformed protobuf bodies get their documented answers and the node goes on serving.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transactionHash } from '../../src/core/tx-hash.js';
import { verifyInclusion } from '../../src/proofs/index.js';
import { ProofApiError, TransactionProofClient } from '../../src/proofs/index.js';
import { svcProcess } from '../cli/support.js';
import { http, rawCall, stillServes } from '../hostile/support.js';
import { tickVerifier } from '../proofs/support/verifier.js';
import { SequencerClient, wireTx, type WireTick, type WireTransaction } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { collidingPair } from '../support/tx-proofs.js';

type Json = Record<string, unknown>;

interface WireProof {
  tick_number: string;
  index: number;
  transaction_count: number;
  tx: string;
  audit_path: string[];
  batch_hash: string;
  tick: WireTick;
}
interface WireProofResponse {
  found: boolean;
  proof: WireProof | null;
  pending: boolean;
  candidates: Array<{ tx_hash: string; tick_number: string; sequence_number: string }>;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fullHashOf = (t: WireTransaction): string =>
  hex(
    transactionHash({
      txId: t.tx_id,
      payload: t.payload,
      signature: t.signature,
      publicKey: t.public_key,
      nonce: BigInt(t.nonce),
      timestamp: BigInt(t.timestamp),
    }),
  );

describe('end to end: transaction inclusion proofs from the real node', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess;
  let client: SequencerClient;
  let rest: string;
  const sent: Array<{ short: string; full: string }> = [];

  const get = async (path: string) => {
    const res = await fetch(rest + path);
    const text = await res.text();
    return { status: res.status, text, retryAfter: res.headers.get('retry-after'), body: JSON.parse(text) as Json };
  };
  const proofAnswer = (hash: string) => client.call<WireProofResponse>('GetTransactionProof', { tx_hash: hash });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-proof-'));
    node = await spawnNode(join(dir, 'db'), ['--idle-tick-ms', '20']);
    client = new SequencerClient(node.addresses.grpc!);
    rest = `http://${node.addresses.rest}`;
    for (const k of [1, 3, 5]) {
      const txs = Array.from({ length: k }, () => wireTx(30 + k, `proof-${k}`));
      const { responses } = await client.submitBatch(txs);
      txs.forEach((t, i) => sent.push({ short: responses[i]!.tx_hash, full: fullHashOf(t) }));
    }
    const last = sent[sent.length - 1]!;
    for (let i = 0; (await fetch(`${rest}/api/v1/tx/${last.short}/proof`)).status !== 200; i++) {
      if (i > 500) throw new Error('the last transaction never reached a proven tick');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('REST: every proof verifies down to its VDF proof; its tick is byte for byte GET /api/v1/tick/{n}; short, full and upper-case hashes give the same proof', async () => {
    const v = await tickVerifier();
    const counts = new Set<number>();
    for (const { short, full } of sent) {
      const r = await get(`/api/v1/tx/${short}/proof`);
      expect(r.status, r.text).to.equal(200);
      const proof = r.body;
      expect(Object.keys(proof)).to.deep.equal([
        'tick_number',
        'index',
        'transaction_count',
        'tx',
        'audit_path',
        'batch_hash',
        'tick',
      ]);
      const tickText = await (await fetch(`${rest}/api/v1/tick/${proof.tick_number}`)).text();
      expect(JSON.stringify(proof.tick)).to.equal(tickText);
      expect(r.text.endsWith(`"tick":${tickText}}`)).to.equal(true);
      expect((await get(`/api/v1/tx/${full}/proof`)).text).to.equal(r.text);
      expect((await get(`/api/v1/tx/${full.toUpperCase()}/proof`)).text).to.equal(r.text);
      expect((await get(`/api/v1/tx/${short.toUpperCase()}/proof`)).text).to.equal(r.text);
      const verdict = verifyInclusion(proof, { tickVerifier: v, expectedHash: full });
      expect(verdict.ok, JSON.stringify(verdict)).to.equal(true);
      if (verdict.ok) {
        expect(verdict.tx_hash).to.equal(full);
        const lookup = (await get(`/api/v1/tx/${short}`)).body;
        expect(verdict.sequence_number).to.equal(lookup.sequence_number);
        expect(verdict.tick_number).to.equal(lookup.tick_number);
      }
      counts.add(proof.transaction_count as number);
    }
    expect(
      [...counts].some((c) => c >= 3),
      `tick sizes ${[...counts]}`,
    ).to.equal(true);
  });

  it("gRPC GetTransactionProof: the same proof as REST, its tick exactly GetTick's, by short or full hash", async () => {
    for (const { short, full } of sent) {
      const viaRest = (await get(`/api/v1/tx/${short}/proof`)).body;
      for (const hash of [short, full, full.toUpperCase()]) {
        const a = await proofAnswer(hash);
        expect(a.found, hash).to.equal(true);
        expect(a.pending).to.equal(false);
        expect(a.candidates).to.deep.equal([]);
        const p = a.proof!;
        expect({
          tick_number: Number(p.tick_number),
          index: p.index,
          transaction_count: p.transaction_count,
          tx: p.tx,
          audit_path: p.audit_path,
          batch_hash: p.batch_hash,
        }).to.deep.equal({
          tick_number: viaRest.tick_number,
          index: viaRest.index,
          transaction_count: viaRest.transaction_count,
          tx: viaRest.tx,
          audit_path: viaRest.audit_path,
          batch_hash: viaRest.batch_hash,
        });
        const tick = await client.call<{ tick: WireTick; found: boolean }>('GetTick', { tick_number: p.tick_number });
        expect(p.tick).to.deep.equal(tick.tick);
        expect(p.tick.transactions[p.index]!.tx_hash).to.equal(short);
        expect(p.tick.transaction_batch_hash).to.equal(p.batch_hash);
      }
    }
  });

  it('unknown hashes: REST 404 {found: false, pending: false} without Retry-After; gRPC found = false', async () => {
    for (const hash of ['00000000', '0'.repeat(64), sent[0]!.full.replace(/.$/, (c) => (c === '0' ? '1' : '0'))]) {
      const r = await get(`/api/v1/tx/${hash}/proof`);
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({
        error: `no transaction with hash ${hash} in a proven tick`,
        found: false,
        pending: false,
      });
      expect(r.retryAfter).to.equal(null);
      expect(await proofAnswer(hash)).to.deep.equal({ found: false, proof: null, pending: false, candidates: [] });
    }
  });

  it('an ambiguous short hash: REST 409 with both candidates oldest first, gRPC found = false with them, each provable by its full hash; svc tx prove exits 1 naming them', async () => {
    const [a, b] = collidingPair(`e2e-collide-${process.pid}`);
    const ra = await client.submit({
      tx_id: a.txId,
      payload: Buffer.alloc(0),
      signature: Buffer.alloc(0),
      public_key: Buffer.alloc(0),
      nonce: '0',
      timestamp: '0',
    });
    const rb = await client.submit({
      tx_id: b.txId,
      payload: Buffer.alloc(0),
      signature: Buffer.alloc(0),
      public_key: Buffer.alloc(0),
      nonce: '0',
      timestamp: '0',
    });
    expect(ra.tx_hash).to.equal(rb.tx_hash);
    const short = ra.tx_hash;
    const [fa, fb] = [hex(transactionHash(a)), hex(transactionHash(b))];
    let r = await get(`/api/v1/tx/${short}/proof`);
    for (let i = 0; r.status !== 409; i++) {
      if (i > 500) throw new Error(`no 409 for ${short}: ${r.status} ${r.text}`);
      await new Promise((res) => setTimeout(res, 20));
      r = await get(`/api/v1/tx/${short}/proof`);
    }
    const candidates = r.body.candidates as Array<{ tx_hash: string; tick_number: number; sequence_number: number }>;
    expect(candidates.map((c) => c.tx_hash)).to.deep.equal([fa, fb]);
    expect(Number(ra.sequence_number)).to.equal(candidates[0]!.sequence_number);
    expect(Number(rb.sequence_number)).to.equal(candidates[1]!.sequence_number);
    expect(r.body.error).to.match(
      /^2 proven transactions share the hash [0-9a-f]{8}: ask again with a full 64-hex hash$/,
    );
    const g = await proofAnswer(short);
    expect(g.found).to.equal(false);
    expect(g.pending).to.equal(false);
    expect(g.candidates).to.deep.equal(
      candidates.map((c) => ({
        tx_hash: c.tx_hash,
        tick_number: String(c.tick_number),
        sequence_number: String(c.sequence_number),
      })),
    );
    const v = await tickVerifier();
    for (const [full, c] of [
      [fa, candidates[0]!],
      [fb, candidates[1]!],
    ] as const) {
      const p = await get(`/api/v1/tx/${full}/proof`);
      expect(p.status).to.equal(200);
      const verdict = verifyInclusion(p.body, { tickVerifier: v, expectedHash: full });
      expect(verdict.ok && verdict.sequence_number).to.equal(c.sequence_number);
      expect((await proofAnswer(full)).found).to.equal(true);
    }
    const sdk = new TransactionProofClient(rest);
    const answer = await sdk.fetchProof(short);
    expect(answer).to.deep.equal({ status: 'ambiguous', candidates, message: r.body.error });
    // Two reads through the CLI, each its own process: side by side.
    const [cli, cliFull] = await Promise.all([
      svcProcess(['tx', 'prove', short, '--rest-url', rest]),
      svcProcess(['tx', 'prove', fb, '--json', '--rest-url', rest]),
    ]);
    expect(cli.code).to.equal(1);
    expect(cli.err.trim()).to.equal(
      `svc tx prove: 2 proven transactions share the hash ${short}: ${fa} (tick ${candidates[0]!.tick_number}, sequence ${candidates[0]!.sequence_number}), ${fb} (tick ${candidates[1]!.tick_number}, sequence ${candidates[1]!.sequence_number}); ask with the full 64-hex hash`,
    );
    expect(cliFull.code, cliFull.err).to.equal(0);
    expect(JSON.parse(cliFull.out)).to.include({ ok: true, tx_hash: fb, tx_id: b.txId });
  });

  it('malformed hashes: REST 400 (non-hex, 7/9/63/65 characters, 10,000 characters), 431 for a path beyond the header limit; gRPC INVALID_ARGUMENT', async () => {
    const bad = [
      'zzzzzzzz',
      '1234567',
      '123456789',
      'a'.repeat(63),
      'a'.repeat(65),
      'g'.repeat(64),
      '%20%20%20%20%20%20%20%20',
      '1234%2f78',
      '-1234567',
      'a'.repeat(10_000),
    ];
    for (const hash of bad) {
      const r = await http(node.addresses.rest!, 'GET', `/api/v1/tx/${hash}/proof`);
      expect(r.status, `${hash.slice(0, 20)}: ${r.text}`).to.equal(400);
      expect(r.json().error).to.match(/^tx_hash must be (8 or 64 hexadecimal characters|hexadecimal)/);
      expect(r.text.length, 'the error quotes at most a clip of the input').to.be.below(300);
    }
    const huge = await http(node.addresses.rest!, 'GET', `/api/v1/tx/${'a'.repeat(40_000)}/proof`);
    expect(huge.status).to.equal(431);
    for (const hash of ['', 'zzzzzzzz', '1234567', 'a'.repeat(65), 'é'.repeat(4), 'a'.repeat(100_000)]) {
      const e = await rawCall(
        node.addresses.grpc!,
        'GetTransactionProof',
        Buffer.concat([Buffer.from([0x0a]), varint(Buffer.byteLength(hash)), Buffer.from(hash)]),
      );
      expect(e.code, `${hash.slice(0, 20)}: ${e.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(e.details).to.match(/^tx_hash must be (8 or 64 hexadecimal characters|hexadecimal)/);
    }
    const sdk = new TransactionProofClient(rest);
    for (const hash of ['zzzzzzzz', '1234567', '']) {
      let thrown: unknown;
      try {
        await sdk.fetchProof(hash);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, hash).to.be.instanceOf(RangeError);
    }
    await stillServes(node);
  });

  it('malformed GetTransactionProof bodies answer INVALID_ARGUMENT naming the message, never INTERNAL; unknown fields are skipped', async () => {
    const bodies: Array<[string, string]> = [
      ['truncated tag varint', 'ffffffff'],
      ['truncated length', '0a'],
      ['length past the end', '0a 40 3132'],
      ['field number 0', '0001'],
      ['wire type 7', '0f00'],
      ['a group', '0b0c'],
      ['tx_hash as a varint', '08 01'],
      ['tx_hash as fixed64', '09 0000000000000000'],
      ['invalid UTF-8 in tx_hash', '0a 08 ff ff ff ff ff ff ff ff'],
      ['an 11-byte varint', '10 8080808080808080808001'],
    ];
    for (const [what, body] of bodies) {
      const r = await rawCall(
        node.addresses.grpc!,
        'GetTransactionProof',
        Buffer.from(body.replace(/\s+/g, ''), 'hex'),
      );
      expect(r.code, `${what}: ${r.details}`).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(r.details, what).to.match(/^malformed GetTransactionProofRequest: /);
    }
    const empty = await rawCall(node.addresses.grpc!, 'GetTransactionProof', Buffer.alloc(0));
    expect(empty.code).to.equal(grpc.status.INVALID_ARGUMENT); // no tx_hash: the empty string
    const short = sent[0]!.short;
    const withUnknown = Buffer.concat([
      Buffer.from('1005', 'hex'),
      Buffer.from([0x0a, 8]),
      Buffer.from(short),
      Buffer.from('1a0100', 'hex'),
    ]);
    const ok = await rawCall(node.addresses.grpc!, 'GetTransactionProof', withUnknown);
    expect(ok.code, ok.details).to.equal(0);
    await stillServes(node);
  });

  it('the SDK client: proveTransaction fetches and verifies; a node error is a ProofApiError', async () => {
    const v = await tickVerifier();
    const sdk = new TransactionProofClient(`${rest}/`);
    const { short, full } = sent[sent.length - 2]!;
    const { answer, result } = await sdk.proveTransaction(short, { tickVerifier: v });
    expect(answer.status).to.equal('found');
    expect(result?.ok && result.tx_hash).to.equal(full);
    const waited = await sdk.proveTransaction(full, { tickVerifier: v, waitMs: 5_000 });
    expect(waited.result?.ok).to.equal(true);
    expect((await sdk.fetchProof('00000000')).status).to.equal('unknown');
    // An answer outside the documented ones (a proxy's 503, say) is a ProofApiError with its status and message.
    const proxy = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"error":"upstream is restarting"}');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    let thrown: unknown;
    try {
      await new TransactionProofClient(`http://127.0.0.1:${(proxy.address() as { port: number }).port}`).fetchProof(
        short,
      );
    } catch (err) {
      thrown = err;
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    expect(thrown).to.be.instanceOf(ProofApiError);
    expect(thrown).to.include({ status: 503, message: 'upstream is restarting' });
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
