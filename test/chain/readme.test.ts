/**
 * README "Chain explorer": its shell block runs as written against the real node binary
 * (only the addresses are pointed at the test node's ports, and it runs in a temp dir
 * with the repository's node_modules on NODE_PATH): gRPC SubmitTx/StreamTx through
 * `svc chain`, every curl, and the WebSocket one-liner.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnNode, type NodeProcess } from '../support/node-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** The first ```sh block of the README section `title`. */
async function readmeBlock(title: string): Promise<string> {
  const text = await readFile(join(ROOT, 'README.md'), 'utf8');
  const start = text.indexOf(`## ${title}\n`);
  if (start < 0) throw new Error(`README has no section '${title}'`);
  const m = /```sh\n([\s\S]*?)```/.exec(text.slice(start));
  if (!m) throw new Error(`section '${title}' has no sh block`);
  return m[1]!;
}

describe('README "Chain explorer" examples run as written', function () {
  this.timeout(120_000);
  let node: NodeProcess | undefined;
  let dir: string;
  let work: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-readme-chain-'));
    work = await mkdtemp(join(tmpdir(), 'svc-readme-work-'));
  });
  after(async () => {
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  it('gRPC, curl and WebSocket examples', async () => {
    node = await spawnNode(dir, ['--idle-tick-ms', '20'], ['grpc', 'rest', 'dex', 'rpc']);
    const block = await readmeBlock('Chain explorer');
    expect(block).to.match(/^RPC=http:\/\/127\.0\.0\.1:8082 /m);
    expect(block).to.match(/^export SVC_GRPC_URL=127\.0\.0\.1:9090 /m);
    const script = block
      .replace(/^RPC=\S+/m, `RPC=http://${node.addresses.rpc}`)
      .replace(/^export SVC_GRPC_URL=\S+/m, `export SVC_GRPC_URL=${node.addresses.grpc}`)
      .replace(/^svc\(\) \{ node bin\/svc\.js/m, `svc() { node ${join(ROOT, 'bin/svc.js')}`)
      .split('\n')
      // Print a marker before each command, so the output can be checked command by command.
      .map((line) =>
        line.trim() === '' || line.startsWith('#') || /^\s/.test(line)
          ? line
          : `echo; echo "@@ ${line.split(' ')[0]!.replace(/[^a-z]/g, '')}"\n${line}`,
      )
      .join('\n');
    const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: work,
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
      timeout: 90_000,
    });
    const parts = stdout
      .split(/^@@ .*$/m)
      .map((p) => p.trim())
      .filter((p) => p.length > 0);
    const json = parts.filter((p) => p.startsWith('{') || p.startsWith('['));
    const submitted = json.find((p) => p.includes('"transaction_id"') && p.includes('"order"'));
    expect(submitted, stdout.slice(0, 3000)).to.not.equal(undefined);
    expect(stdout).to.include('"block_height"'); // /status
    expect(stdout).to.match(/"ticks":\[\{"tick_number":\d+,"found":true/); // /blocks/1/ticks
    expect(stdout).to.match(/"kind":"order","market_id"/); // /transactions/<carol's order>
    expect(stdout).to.match(/"markets":\[\{"id":"0000000000000001-0000-0000"/); // /blocks/1: the market creation
    expect(stdout).to.match(/"orders":\[\{"market_id"/); // /orders/user/<carol>
    expect(stdout).to.match(/"tick_number":"\d+","block_height":"\d+"/); // svc chain stream
    expect(parts[parts.length - 1], stdout.slice(-3000)).to.match(/^\d+$/); // the WebSocket one-liner printed a height
  });
});
