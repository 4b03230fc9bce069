/**
 * The two scripts a newcomer's first commands run: `npm test`'s pretest step
 * (scripts/test-tools.mjs: where Chromium, nats-server and curl are found, and the one line
 * printed when one is missing) and `npm start`'s prestart step (scripts/build-if-needed.mjs:
 * build when there is no build or a source is newer). Both on temporary directory trees.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const scripts = fileURLToPath(new URL('../../../scripts/', import.meta.url));

interface Found {
  path?: string;
  missing?: string;
}
const tools = (await import(join(scripts, 'test-tools.mjs'))) as {
  findTool(name: string, env: NodeJS.ProcessEnv, options?: { system?: boolean }): Found;
  TOOLS: Array<{ name: string }>;
};
const build = (await import(join(scripts, 'build-if-needed.mjs'))) as {
  buildReason(root: string): string | undefined;
  OUTPUTS: string[];
};

async function executable(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '#!/bin/sh\necho fake\n');
  await chmod(path, 0o755);
  return path;
}

describe('scripts a newcomer runs first', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-scripts-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('pretest: finding the tools tests drive', () => {
    it('lists Chromium, nats-server, curl and PostgreSQL', () => {
      expect(tools.TOOLS.map((t) => t.name)).to.deep.equal(['chromium', 'nats-server', 'curl', 'postgres']);
    });

    it('takes the tool variable first, and never passes over a wrong one silently', async () => {
      const chrome = await executable(join(dir, 'my-chrome'));
      expect(tools.findTool('chromium', { PATH: '' }, { system: false }).missing).to.match(
        /^npm test needs Chromium \(browser tests\), which was not found: /,
      );
      expect(tools.findTool('chromium', { CHROME_PATH: chrome, PATH: '' })).to.deep.equal({ path: chrome }); // before system paths
      const wrong = tools.findTool('chromium', { CHROME_PATH: join(dir, 'nope'), PATH: '' });
      expect(wrong.missing).to.match(
        new RegExp(`^CHROME_PATH=${dir}/nope is not an executable file: install Chromium`),
      );
    });

    it("finds playwright's newest cached Chromium, and tools on PATH", async () => {
      const cache = join(dir, 'pw');
      await executable(join(cache, 'chromium-1100', 'chrome-linux', 'chrome'));
      const newest = await executable(join(cache, 'chromium-1200', 'chrome-linux64', 'chrome'));
      expect(
        tools.findTool('chromium', { PLAYWRIGHT_BROWSERS_PATH: cache, PATH: '' }, { system: false }),
      ).to.deep.equal({ path: newest });
      const onPath = await executable(join(dir, 'bin', 'chromium'));
      expect(
        tools.findTool('chromium', { PLAYWRIGHT_BROWSERS_PATH: cache, PATH: join(dir, 'bin') }, { system: false }),
      ).to.deep.equal({ path: onPath });
      const nats = await executable(join(dir, 'bin', 'nats-server'));
      expect(tools.findTool('nats-server', { PATH: join(dir, 'bin') }, { system: false })).to.deep.equal({
        path: nats,
      });
    });

    it('a missing tool is one line saying how to get it', () => {
      const r = tools.findTool('curl', { PATH: '', CURL_PATH: '' }, { system: false });
      expect(r.missing).to.equal(
        "npm test needs curl (the README's shell examples), which was not found: install curl (Debian: apt-get install curl) or set CURL_PATH to it",
      );
    });

    it('the pretest step itself exits 1 with that line when a tool variable is wrong', () => {
      const r = spawnSync(process.execPath, [join(scripts, 'test-tools.mjs')], {
        env: { ...process.env, NATS_SERVER_PATH: join(dir, 'missing') },
        encoding: 'utf8',
      });
      expect(r.status).to.equal(1);
      expect(r.stderr.trim()).to.equal(
        `NATS_SERVER_PATH=${join(dir, 'missing')} is not an executable file: install nats-server (Debian: apt-get install nats-server; elsewhere a release from https://github.com/nats-io/nats-server/releases) or set NATS_SERVER_PATH to it`,
      );
    });
  });

  describe('prestart: build when needed', () => {
    async function tree(): Promise<void> {
      for (const f of ['src/a.ts', 'assembly/index.ts', 'workers/w.ts', 'tsconfig.json'])
        await executable(join(dir, f));
      for (const f of build.OUTPUTS) await executable(join(dir, f));
    }

    it('no build yet: builds', async () => {
      await executable(join(dir, 'src/a.ts'));
      expect(build.buildReason(dir)).to.equal(`${build.OUTPUTS[0]} does not exist yet`);
    });

    it('a current build: nothing to do; a newer source: builds, naming it', async () => {
      await tree();
      const old = new Date(Date.now() - 60_000);
      for (const f of ['src/a.ts', 'src', 'assembly/index.ts', 'assembly', 'workers/w.ts', 'workers', 'tsconfig.json'])
        await utimes(join(dir, f), old, old);
      expect(build.buildReason(dir)).to.equal(undefined);
      await utimes(join(dir, 'src/a.ts'), new Date(), new Date(Date.now() + 5000));
      expect(build.buildReason(dir)).to.equal('src/a.ts changed since the last build');
    });
  });
});
