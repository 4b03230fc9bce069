/**
 * README.md says only what the code does: this test reads the README itself and runs its
 * examples against a real node (the `svc node` binary on port 0), so they cannot drift.
 *   - every ```sh block, in order, in one bash session (so `svc()` and `$H`, `$M` carry on),
 *     with `set -euo pipefail` and curl failing on HTTP errors; the README's default
 *     addresses (localhost:9090/8080/8081) are pointed at the test node, SVC_GRPC_URL and
 *     SVC_DEX_URL and SVC_REST_URL likewise, and SVC_HOME at a fresh directory (a new user);
 *   - the ```js block (the Node gRPC client) as a module run from the repository root;
 *   - the ```html block (the browser verifier) in headless Chromium;
 *   - the flags table against the flag table of src/config.
 * A block may be left out only with a marker line above it: `<!-- readme-test: run by
 * test/....test.ts -->` (another test runs it), or `<!-- readme-test: not run (why) -->` when
 * it only installs, starts a server (npm start, nats-server, svc indexer) or runs the suite.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { childOutput } from './support/child-output.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { FLAGS } from '../src/config/index.js';
import { spawnNode, type NodeProcess } from './support/node-process.js';
import { launchChromium, toolPath } from './support/tools.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Block {
  lang: string;
  text: string;
  line: number; // of the opening fence, 1-based
  skip?: string; // the reason given in a `not run (...)` marker above it
  runBy?: string; // the test file named in a `run by test/...` marker above it
}

/** The fenced code blocks of a Markdown text, with any `readme-test: not run` marker above each. */
function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const above =
      lines
        .slice(0, start)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    const skip = /^<!-- readme-test: not run \((.+)\) -->$/.exec(above.trim())?.[1];
    const runBy = /^<!-- readme-test: run by (test\/\S+\.test\.ts)\b.* -->$/.exec(above.trim())?.[1];
    blocks.push({
      lang: open[1]!,
      text: body.join('\n'),
      line: start + 1,
      ...(skip ? { skip } : {}),
      ...(runBy ? { runBy } : {}),
    });
  }
  return blocks;
}

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(
  cmd: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = childOutput(child);
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    void output.then((r) => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}

describe('README.md examples, run against a real node', function () {
  this.timeout(240_000);
  let readme: string;
  let blocks: Block[];
  let dir: string;
  let node: NodeProcess;
  let browser: Browser | undefined;
  let at: (text: string) => string;

  before(async () => {
    readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    blocks = codeBlocks(readme);
    dir = await mkdtemp(join(tmpdir(), 'svc-readme-'));
    node = await spawnNode(join(dir, 'db'), ['--idle-tick-ms', '50'], ['grpc', 'rest', 'dex']);
    const { grpc, rest, dex } = node.addresses;
    at = (text) =>
      text.replaceAll('localhost:9090', grpc!).replaceAll('localhost:8080', rest!).replaceAll('localhost:8081', dex!);
  });
  after(async () => {
    await browser?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('has examples, and leaves out only blocks that install, start a server or run the suite', async () => {
    expect(blocks.filter((b) => b.lang === 'sh' && !b.skip && !b.runBy).length).to.be.at.least(3);
    for (const b of blocks.filter((x) => x.skip)) {
      // One command per line, a quoted script spanning lines counted as one.
      const commands: string[] = [];
      for (const l of b.text.split('\n')) {
        const prev = commands.at(-1);
        if (prev !== undefined && (prev.match(/"/g) ?? []).length % 2 === 1)
          commands[commands.length - 1] = `${prev}\n${l}`;
        else commands.push(l.replace(/(^|\s+)#.*$/, '').trim());
      }
      for (const c of commands.filter(Boolean)) {
        expect(c, `README line ${b.line}: '${c}' must be run by a test`).to.match(
          /^(npm (install|ci|start|test)( -- .+)?|nats-server .+ &|svc indexer .+|node --input-type=module -e "[\s\S]+")$/,
        );
      }
    }
    for (const b of blocks.filter((x) => x.runBy)) {
      const other = await readFile(join(ROOT, b.runBy!), 'utf8');
      expect(other, `${b.runBy} runs README line ${b.line}`).to.contain('README');
    }
    for (const b of blocks)
      expect(['sh', 'js', 'html'], `README line ${b.line}: a block in '${b.lang}'`).to.include(b.lang);
  });

  it('every shell example runs as written, in order, in one shell', async () => {
    const curl = await toolPath('curl');
    const home = join(dir, 'home');
    const cwdBefore = await readdir(ROOT);
    const sh = blocks.filter((b) => b.lang === 'sh' && !b.skip && !b.runBy);
    const script = [
      'set -euo pipefail',
      // curl as written, but an HTTP error fails the example instead of printing a body.
      `curl() { command ${JSON.stringify(curl)} --fail-with-body "$@"; }`,
      ...sh.flatMap((b) => [`echo "::README line ${b.line}::"`, at(b.text)]),
    ].join('\n');
    const env = {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      SVC_GRPC_URL: node.addresses.grpc!,
      SVC_DEX_URL: `http://${node.addresses.dex}`,
      SVC_REST_URL: `http://${node.addresses.rest}`,
      SVC_HOME: home,
    };
    const r = await run('bash', ['-c', script], { env, timeoutMs: 180_000 });
    const last = r.out.match(/::README line (\d+)::/g)?.at(-1);
    expect(r.code, `README examples failed after ${last}:\n${r.out.slice(-3000)}\n${r.err.slice(-3000)}`).to.equal(0);
    // What the comments promise is what came out.
    expect(r.out).to.match(/^127\.0\.0\.1:\d+: tick \d+, \d+ transactions in ticks/m); // svc status
    expect(r.out).to.match(/^cli-\S+ {2}tx_hash [0-9a-f]{8} {2}sequence \d+ {2}expected tick \d+ {2}in tick \d+$/m);
    expect(r.out).to.match(/^tx [0-9a-f]{8}: in tick \d+, sequence \d+$/m); // svc tx get $H
    expect(r.out).to.match(
      /^verified ticks 1\.\.\d+ \(\d+ ticks, \d+ transactions\): VDF proofs, batch hashes, chained from genesis/m,
    );
    expect(r.out).to.match(/"chain_height":\d+/);
    expect(r.out).to.match(/^svc_current_tick \d+$/m);
    expect(r.out)
      .to.contain('"status": "filled"')
      .and.contain('"valid": true')
      .and.contain('"cancelled_quantity": "2"');
    expect(r.out).to.match(/"file":"[^"]+\/keys\/alice\.json"/);
    // Keys and receipts went to the svc directory, nothing into the repository.
    expect(await readdir(join(home, 'keys'))).to.have.members(['alice.json', 'bob.json']);
    expect(await readdir(join(home, 'receipts'))).to.deep.equal(['bob-buy.json']);
    expect(await readdir(ROOT)).to.have.members(cwdBefore);
  });

  it('the Node gRPC example runs from the repository root, finds its tick and exits', async () => {
    const js = blocks.filter((b) => b.lang === 'js');
    expect(js).to.have.length(1);
    const r = await run(process.execPath, ['--input-type=module'], { input: at(js[0]!.text), timeoutMs: 60_000 });
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(/^submitted \{/m);
    expect(r.out).to.match(/^in tick \d+, with \d+ transaction\(s\)$/m);
  });

  it('the browser example runs in Chromium and reports the gap', async () => {
    const html = blocks.filter((b) => b.lang === 'html');
    expect(html).to.have.length(1);
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    const logged: unknown[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => void Promise.all(m.args().map((a) => a.jsonValue())).then((v) => logged.push(v[0])));
    await page.setContent(at(html[0]!.text));
    for (let i = 0; i < 600 && logged.length < 3 && errors.length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(errors).to.deep.equal([]);
    const [one, batch, gap] = logged as [
      { ok: boolean; tickNumber: number },
      { ok: boolean; gaps: unknown[] },
      { ok: boolean; invalid: number[]; gaps: unknown[] },
    ];
    expect(one).to.deep.equal({ ok: true, tickNumber: 2 });
    expect(batch).to.deep.include({ ok: true, invalid: [], gaps: [] });
    expect(gap).to.deep.include({ ok: false, invalid: [1], gaps: [{ from: 2, to: 2 }] });
    await page.close();
  });

  it("the flags table gives each flag's real default", () => {
    const rows = [...readme.matchAll(/^\| `--([\w-]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(rows.length).to.be.at.least(8);
    for (const [flag, shown] of rows) {
      const spec = FLAGS.find((f) => f.flag === flag);
      expect(spec, `README lists --${flag}, which svc node does not have`).to.not.equal(undefined);
      expect(shown, `README default of --${flag}`).to.equal(spec!.defaultValue);
    }
  });

  it("the package's entries resolve: svc, svc/sdk, svc/vdf (as `import ... from 'svc/vdf'` in the README)", async () => {
    const code = `
      const svc = await import('svc'); const sdk = await import('svc/sdk'); const vdf = await import('svc/vdf');
      console.log(typeof svc.startNode, typeof svc.nodeConfig, typeof sdk.DexClient, typeof vdf.loadVdfEngine);`;
    const r = await run(process.execPath, ['--input-type=module'], { input: code });
    expect(r.code, r.err).to.equal(0);
    expect(r.out.trim()).to.equal('function function function function');
  });
});
