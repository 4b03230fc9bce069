/**
 * What a newcomer reads and where the CLI writes: every command's and subcommand's --help
 * (a description, each flag with its default and the environment variable it reads),
 * `svc --version`, and key and receipt files kept in the svc directory ($SVC_HOME, else
 * $XDG_CONFIG_HOME/svc, else ~/.config/svc), never in the current directory.
 */
import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveFile, svcHome } from '../../src/cli/dex-common.js';
import { svc, svcProcess } from './support.js';

describe('svc --help, --version and the svc directory', function () {
  this.timeout(60_000);

  it('every command and subcommand has --help with a description, defaults and environment variables', async () => {
    const top = await svc('--help');
    const names = [...top.out.matchAll(/^ {2}(\w+) +\S/gm)].map((m) => m[1]!);
    expect(names).to.include.members([
      'node',
      'status',
      'tx',
      'tick',
      'ticks',
      'verify',
      'keygen',
      'market',
      'order',
      'receipt',
    ]);
    const leaves: string[][] = [];
    for (const name of names) {
      const h = await svc(name, '--help');
      expect(h.code, name).to.equal(0);
      const subs = [...h.out.matchAll(new RegExp(`^ {2}svc ${name} (\\w+) `, 'gm'))].map((m) => m[1]!);
      if (subs.length) subs.forEach((s) => leaves.push([name, s]));
      else leaves.push([name]);
    }
    expect(leaves).to.deep.include.members([
      ['tx', 'send'],
      ['tx', 'get'],
      ['tick', 'get'],
      ['ticks', 'watch'],
      ['status'],
      ['verify'],
      ['market', 'create'],
      ['order', 'place'],
      ['receipt', 'verify'],
    ]);
    for (const leaf of leaves) {
      const h = await svc(...leaf, '--help');
      expect(h.code, leaf.join(' ')).to.equal(0);
      expect(h.out, leaf.join(' ')).to.match(new RegExp(`^usage: svc ${leaf.join(' ')} `));
      expect(h.out.split('\n')[2], `${leaf.join(' ')} has a one-line description`).to.match(/\w{3}/);
      if (h.out.includes('--grpc-url')) expect(h.out).to.contain('(default 127.0.0.1:9090; env SVC_GRPC_URL)');
      if (h.out.includes('--url URL')) expect(h.out).to.contain('(default http://127.0.0.1:8081; env SVC_DEX_URL)');
    }
    expect((await svc('verify', '--help')).out)
      .to.contain('(default 1)')
      .and.contain("(default the node's latest tick)");
    expect((await svc('node', '--help')).out).to.contain('env SVC_DB_PATH, default ./rollup_data');
  });

  it('svc --version prints the package version and the Node version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const r = await svcProcess(['--version']);
    expect(r.code).to.equal(0);
    expect(r.out.trim()).to.equal(`svc ${pkg.version} (node ${process.version})`);
  });

  it('the svc directory: SVC_HOME, else XDG_CONFIG_HOME/svc, else ~/.config/svc; names vs paths', () => {
    expect(svcHome({ SVC_HOME: '/x/svc' })).to.equal('/x/svc');
    expect(svcHome({ XDG_CONFIG_HOME: '/cfg' })).to.equal('/cfg/svc');
    expect(svcHome({})).to.equal(join(homedir(), '.config', 'svc'));
    expect(resolveFile('keys', './alice.json')).to.equal('./alice.json');
    expect(resolveFile('receipts', '/tmp/r.json')).to.equal('/tmp/r.json');
    expect(() => resolveFile('keys', 'a b')).to.throw("'a b' is not a key name");
    expect(resolveFile('keys', 'alice')).to.equal(join(svcHome(), 'keys', 'alice.json'));
  });

  it('keygen NAME writes one line and a 0600 key under SVC_HOME, refuses to overwrite, and leaves the current directory alone', async () => {
    const home = await mkdtemp(join(tmpdir(), 'svc-home-'));
    const cwd = await mkdtemp(join(tmpdir(), 'svc-cwd-'));
    try {
      const r = await svcProcess(['keygen', 'alice'], { SVC_HOME: home }, undefined, cwd);
      expect(r.code, r.err).to.equal(0);
      expect(r.out.trim().split('\n')).to.have.length(1);
      const line = JSON.parse(r.out) as { public_key: string; file: string };
      expect(line.file).to.equal(join(home, 'keys', 'alice.json'));
      expect((await stat(line.file)).mode & 0o777).to.equal(0o600);
      expect((await stat(join(home, 'keys'))).mode & 0o777).to.equal(0o700);
      const again = await svcProcess(['keygen', 'alice'], { SVC_HOME: home }, undefined, cwd);
      expect(again.code).to.equal(2);
      expect(again.err).to.contain(`${line.file} already exists (public key ${line.public_key}); --force replaces it`);
      const printed = await svcProcess(['keygen'], { SVC_HOME: home }, undefined, cwd);
      expect(printed.out.trim().split('\n')).to.have.length(1);
      expect(JSON.parse(printed.out)).to.have.keys('algorithm', 'public_key', 'public_key_hex', 'secret_key');
      const missing = await svcProcess(
        ['order', 'cancel', '--key', 'bob', '--market', 'm', '--order-id', '1'],
        { SVC_HOME: home },
        undefined,
        cwd,
      );
      expect(missing.code).to.equal(2);
      expect(missing.err).to.contain(
        `no key 'bob' (looked for ${join(home, 'keys', 'bob.json')}; create it with: svc keygen bob)`,
      );
      expect(await readdir(cwd)).to.deep.equal([]);
    } finally {
      await rm(home, { recursive: true, force: true });
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
