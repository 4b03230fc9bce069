/**
 * `svc tx prove` as the real `node bin/svc.js` process against a real node (`svc node` on
 * port 0): a proof fetched over REST verifies down to its tick's VDF proof (exit 0, a
 * human line or --json), by short or full hash, with --rest-url or SVC_REST_URL; unknown
 * hashes exit 1; malformed ones, a missing hash and a bad --rest-url exit 2; an unreachable
 * node exits 1; and every field of a served proof, tampered on its own, is INVALID at the
 * step that rejects it (each through the command's check in process, one per step through
 * the command, served by a tiny local HTTP server, or fed with --proof-file), exit 1.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { SequencerClient, wireTx } from '../support/grpc-client.js';
import { tamperings } from '../support/tx-proofs.js';
import { checkTransactionProof } from '../../src/proofs/index.js';
import { createVerifier } from '../../src/browser/index.js';
import { vdfWasmModule } from '../../src/vdf/index.js';
import { sideBySide, svcProcess, type CliRun } from './support.js';

type Json = Record<string, unknown>;

describe('svc tx prove against a real node', function () {
  this.timeout(180_000);
  let dir: string;
  let node: NodeProcess;
  let rest: string;
  let client: SequencerClient;
  /** A proof of a transaction in a tick of at least 3, with an audit path of at least 2 elements, and its full hash. */
  let served: { hash: string; full: string; proof: Json };

  const prove = (args: string[], env: Record<string, string> = {}, input?: string): Promise<CliRun> =>
    svcProcess(['tx', 'prove', ...args], env, input);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-tx-prove-'));
    node = await spawnNode(join(dir, 'db'), ['--idle-tick-ms', '20']);
    rest = `http://${node.addresses.rest}`;
    client = new SequencerClient(node.addresses.grpc!);
    const { responses } = await client.submitBatch(Array.from({ length: 7 }, () => wireTx(40, 'prove')));
    for (let tries = 0; !served; tries++) {
      for (const r of responses) {
        const res = await fetch(`${rest}/api/v1/tx/${r.tx_hash}/proof`);
        if (res.status !== 200) continue;
        const proof = (await res.json()) as Json;
        if ((proof.transaction_count as number) >= 3 && (proof.audit_path as string[]).length >= 2) {
          served = { hash: r.tx_hash, full: '', proof };
          break;
        }
      }
      if (tries > 400) throw new Error('no proof of a tick with 3 or more transactions');
      await new Promise((r) => setTimeout(r, 50));
    }
    const json = await prove([served.hash, '--json', '--rest-url', rest]);
    served.full = (JSON.parse(json.out) as { tx_hash: string }).tx_hash;
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('a served proof verifies: exit 0 with a line for people, or the verdict as JSON; short or full hash; --rest-url or SVC_REST_URL', async () => {
    const [human, json] = await Promise.all([
      prove([served.hash, '--rest-url', rest]),
      prove([served.full.toUpperCase(), '--json'], { SVC_REST_URL: node.addresses.rest! }),
    ]);
    expect(human.code, human.err).to.equal(0);
    expect(human.out).to.match(
      new RegExp(
        `^tx ${served.hash}[0-9a-f]{56}: proof valid: in tick ${served.proof.tick_number} at index ${served.proof.index} \\(sequence \\d+\\); the tick's VDF proof verifies\\n {2}tx_id {7}prove-`,
      ),
    );
    expect(json.code, json.err).to.equal(0);
    const verdict = JSON.parse(json.out) as Json;
    const tick = (served.proof.tick as Json).tick as Json;
    expect(verdict).to.include({
      ok: true,
      tick_number: served.proof.tick_number,
      index: served.proof.index,
      tx_hash: served.full,
    });
    expect(verdict.sequence_number).to.equal((tick.first_sequence as number) + (served.proof.index as number));
  });

  it('unknown hashes exit 1; malformed hashes, no hash and a bad --rest-url exit 2; an unreachable node exits 1', async () => {
    // A port nobody listens on (it was just free).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // Every case is its own process with its own exit code and stderr, none changes the node:
    // they run side by side, and each is asserted on its own below.
    const bads = [
      'zzzzzzzz',
      '1234567',
      '123456789',
      'a'.repeat(63),
      'a'.repeat(65),
      'a'.repeat(10_000),
      '12345678/../proof',
      '',
    ];
    const urls = ['ftp://x:1', 'http://[nonsense', 'http://127.0.0.1:1/?q=1'];
    // The unreachable port first: it starts at once, as soon after the port was freed as before.
    const argvs = [
      [served.hash, '--rest-url', `127.0.0.1:${port}`],
      ['00000000', '--rest-url', rest],
      [served.full.replace(/.$/, (c) => (c === '0' ? '1' : '0')), '--rest-url', rest],
      ['--rest-url', rest],
      [served.hash, served.hash, '--rest-url', rest],
      ...bads.map((bad) => [bad, '--rest-url', rest]),
      ...urls.map((url) => [served.hash, '--rest-url', url]),
    ];
    const [down, unknown, unknownFull, none, two, ...others] = await sideBySide(argvs, (argv) => prove(argv));
    const badRuns = others.slice(0, bads.length);
    const urlRuns = others.slice(bads.length);
    expect(urlRuns).to.have.length(urls.length);

    expect(unknown!.code).to.equal(1);
    expect(unknown!.err.trim()).to.equal(`svc tx prove: no transaction with hash 00000000 in a proven tick on ${rest}`);
    expect(unknownFull!.code).to.equal(1);
    expect(unknownFull!.err).to.contain('no transaction with hash');
    bads.forEach((bad, i) => {
      const r = badRuns[i]!;
      expect(r.code, `${bad.slice(0, 20)}: ${r.err}`).to.equal(2);
      expect(r.err).to.match(
        bad === '' ? /give one TX_HASH|must be 8 or 64 hex/ : /TX_HASH must be 8 or 64 hex characters/,
      );
    });
    expect(none!.code).to.equal(2);
    expect(none!.err).to.contain('give one TX_HASH');
    expect(two!.code).to.equal(2);
    urls.forEach((url, i) => {
      expect(urlRuns[i]!.code, `${url}: ${urlRuns[i]!.err}`).to.equal(2);
      expect(urlRuns[i]!.err).to.contain('--rest-url');
    });
    expect(down!.code).to.equal(1);
    expect(down!.err.trim()).to.equal(
      `svc tx prove: cannot reach http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}: is the node running?`,
    );
  });

  describe('tampered proofs', () => {
    let server: Server;
    let base: string;
    const byPrefix = new Map<string, unknown>();

    before(async () => {
      // No test in here asks the node (proofs come from the tiny server below or from files),
      // and the outer tests that do have run (mocha runs a suite's own tests before its inner
      // suites'): the node stops now, so that its clock thread (a core, squaring without
      // pause) leaves both cores of a CI machine to the command's processes.
      node.child.kill('SIGKILL');
      await node.exited;
      // Serves the proof registered under the first path segment: /{variant}/api/v1/tx/{hash}/proof.
      server = createServer((req, res) => {
        const m = /^\/([^/]+)\/api\/v1\/tx\/[^/]+\/proof$/.exec(req.url ?? '');
        const body = m ? byPrefix.get(m[1]!) : undefined;
        res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
        res.end(
          typeof body === 'string'
            ? body
            : JSON.stringify(body ?? { error: 'no such variant', found: false, pending: false }),
        );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const addr = server.address() as { port: number };
      base = `http://127.0.0.1:${addr.port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('the untouched proof served by the tiny server verifies (the server is not what fails)', async () => {
      byPrefix.set('intact', served.proof);
      const r = await prove([served.hash, '--rest-url', `${base}/intact`]);
      expect(r.code, r.err).to.equal(0);
    });

    it('every field changed on its own is INVALID at the step that rejects it; the CLI exits 1 naming it', async () => {
      const cases = tamperings(served.proof);
      expect(cases.length).to.be.at.least(30);
      // Every case through the check the command runs (in process: one CLI start-up costs
      // ~1 s of CPU, 30 of them most of this file's time) ...
      const tickVerifier = await createVerifier(vdfWasmModule());
      const firstOfStep = new Map<string, number>();
      cases.forEach((c, i) => {
        const verdict = checkTransactionProof(c.proof, { tickVerifier, expectedHash: served.hash });
        expect(verdict.ok, c.what).to.equal(false);
        if (verdict.ok) return;
        expect(c.steps, `${c.what}: failed at ${verdict.step} (${verdict.message})`).to.include(verdict.step);
        if (!firstOfStep.has(verdict.step)) firstOfStep.set(verdict.step, i);
      });
      // ... and one case per failing step through the real command, served over HTTP.
      const chosen = [...firstOfStep.values()];
      expect(chosen.length).to.be.at.least(5);
      chosen.forEach((i) => byPrefix.set(`v${i}`, cases[i]!.proof));
      const runs = await Promise.all(chosen.map((i) => prove([served.hash, '--json', '--rest-url', `${base}/v${i}`])));
      runs.forEach((run, k) => {
        const { what, steps } = cases[chosen[k]!]!;
        expect(run.code, `${what}: ${run.out} ${run.err}`).to.equal(1);
        const verdict = JSON.parse(run.out) as { ok: boolean; step: string; message: string };
        expect(verdict.ok, what).to.equal(false);
        expect(steps, `${what}: failed at ${verdict.step} (${verdict.message})`).to.include(verdict.step);
        expect(run.err.trim(), what).to.equal(
          `svc tx prove: the proof is INVALID at step ${verdict.step}: ${verdict.message}`,
        );
      });
    });

    it('a body that is not a proof (not JSON, an array, an empty object) fails at step shape', async () => {
      byPrefix.set('text', 'this is not json');
      byPrefix.set('array', [served.proof]);
      byPrefix.set('empty', {});
      const variants = ['text', 'array', 'empty'];
      const runs = await Promise.all(variants.map((v) => prove([served.hash, '--rest-url', `${base}/${v}`])));
      variants.forEach((v, i) => {
        const r = runs[i]!;
        expect(r.code, `${v}: ${r.err}`).to.equal(1);
        expect(r.err).to.match(/^svc tx prove: the proof is INVALID at step shape: /);
      });
    });

    it('a genuine proof of another transaction fails at step transaction (it is not the asked hash)', async () => {
      byPrefix.set('other', served.proof);
      const r = await prove(['00000000', '--rest-url', `${base}/other`]);
      expect(r.code).to.equal(1);
      expect(r.err).to.match(/INVALID at step transaction: the transaction's hash [0-9a-f]{64} is not 00000000/);
    });

    it('--proof-file checks a kept proof (file or stdin) without asking any node; a tampered one exits 1, a file that is not JSON exits 2', async () => {
      const good = join(dir, 'proof.json');
      await writeFile(good, JSON.stringify(served.proof));
      const bad = tamperings(served.proof).find((c) => c.what === 'audit_path[1]: one bit')!;
      const tampered = join(dir, 'tampered.json');
      await writeFile(tampered, JSON.stringify(bad.proof));
      const junk = join(dir, 'junk.json');
      await writeFile(junk, '{"tick_number": 1,');
      // Six processes reading files written above (none writes): side by side.
      const [ok, noHash, piped, r, j, missing] = await sideBySide(
        [
          () => prove([served.hash, '--proof-file', good, '--rest-url', 'http://127.0.0.1:1']),
          () => prove(['--proof-file', good]),
          () => prove([served.full, '--proof-file', '-'], {}, JSON.stringify(served.proof)),
          () => prove([served.hash, '--proof-file', tampered]),
          () => prove([served.hash, '--proof-file', junk]),
          () => prove([served.hash, '--proof-file', join(dir, 'nope.json')]),
        ],
        (run) => run(),
      );
      expect(ok!.code, ok!.err).to.equal(0);
      expect(noHash!.code, noHash!.err).to.equal(0);
      expect(piped!.code, piped!.err).to.equal(0);
      expect(r!.code).to.equal(1);
      expect(r!.err).to.match(/INVALID at step audit_path: /);
      expect(j!.code).to.equal(2);
      expect(j!.err).to.contain('not valid JSON');
      expect(missing!.code).to.equal(2);
    });
  });
});
