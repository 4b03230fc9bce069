// The programs the test suite drives besides Node itself, and how to find them:
//   Chromium     the browser tests (playwright-core drives a real headless Chromium)
//   nats-server  the message queue tests (a real JetStream server)
//   curl         the README test runs the README's shell examples, which use curl
//   postgres     the indexer tests (a throwaway PostgreSQL cluster: initdb + postgres of the same version)
//
// `node scripts/test-tools.mjs` is `npm test`'s pretest step. For each tool it looks at
// the tool's environment variable, the usual system paths, PATH and (Chromium) the
// playwright browser cache. Where a tool is missing and this is a root shell on Debian or
// Ubuntu with apt-get, it installs the Debian package, saying so; otherwise it stops with
// one line saying how to get the tool. Tests never skip for a missing tool: they call
// findTool() themselves (test/support/tools.ts) and fail with the same line.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Playwright's browser cache: PLAYWRIGHT_BROWSERS_PATH, else its per-OS default. */
function playwrightCache(env) {
  if (env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0') return env.PLAYWRIGHT_BROWSERS_PATH;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ms-playwright');
}

/** Browsers `npx playwright-core install chromium` left in the cache, newest revision first. */
function playwrightChromiums(env) {
  const dir = playwrightCache(env);
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const inside = [
    ['chrome-linux', 'chrome'],
    ['chrome-linux64', 'chrome'],
    ['chrome-linux', 'headless_shell'],
    ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
    ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ];
  const revision = (name) => Number(/-(\d+)$/.exec(name)?.[1] ?? 0);
  return entries
    .filter((e) => /^chromium(_headless_shell)?-\d+$/.test(e))
    .sort((a, b) => revision(b) - revision(a) || a.localeCompare(b))
    .flatMap((e) => inside.map((parts) => join(dir, e, ...parts)));
}

/** What each tool is, where it usually lives, and how to get it. */
export const TOOLS = [
  {
    name: 'chromium',
    what: 'Chromium (browser tests)',
    env: 'CHROME_PATH',
    commands: ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'],
    paths: () => [
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome-stable',
      '/usr/bin/google-chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    ],
    caches: playwrightChromiums,
    debianPackage: 'chromium',
    howTo:
      'install Chromium (Debian: apt-get install chromium; elsewhere: npx playwright-core install chromium) or set CHROME_PATH to a Chromium or Chrome executable',
  },
  {
    name: 'nats-server',
    what: 'nats-server (message queue tests)',
    env: 'NATS_SERVER_PATH',
    commands: ['nats-server'],
    paths: () => ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
    debianPackage: 'nats-server',
    howTo:
      'install nats-server (Debian: apt-get install nats-server; elsewhere a release from https://github.com/nats-io/nats-server/releases) or set NATS_SERVER_PATH to it',
  },
  {
    name: 'curl',
    what: "curl (the README's shell examples)",
    env: 'CURL_PATH',
    commands: ['curl'],
    paths: () => ['/usr/bin/curl', '/usr/local/bin/curl'],
    debianPackage: 'curl',
    howTo: 'install curl (Debian: apt-get install curl) or set CURL_PATH to it',
  },
  {
    name: 'postgres',
    what: 'PostgreSQL server binaries (indexer tests)',
    env: 'POSTGRES_PATH',
    commands: ['postgres'],
    paths: debianPostgres,
    debianPackage: 'postgresql',
    howTo:
      'install PostgreSQL (Debian: apt-get install postgresql) or set POSTGRES_PATH to its postgres binary (initdb beside it)',
  },
];

/** Debian keeps each major version's server in /usr/lib/postgresql/<version>/bin: newest first. */
function debianPostgres() {
  let versions;
  try {
    versions = readdirSync('/usr/lib/postgresql');
  } catch {
    return [];
  }
  return versions
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join('/usr/lib/postgresql', v, 'bin', 'postgres'));
}

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command, env) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

/**
 * Where `name` is: { path } when found, else { missing: '<one line saying how to get it>' }.
 * Looks at the tool's variable, the usual system paths (unless `system` is false, for
 * tests), PATH, then caches (playwright's). A tool's environment variable, when set, must
 * name an executable: it is never silently passed over for another copy.
 */
export function findTool(name, env = process.env, { system = true } = {}) {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown test tool '${name}' (known: ${TOOLS.map((t) => t.name).join(', ')})`);
  const chosen = env[tool.env];
  if (chosen) {
    return isExecutableFile(chosen)
      ? { path: chosen }
      : { missing: `${tool.env}=${chosen} is not an executable file: ${tool.howTo}` };
  }
  if (system) for (const p of tool.paths()) if (isExecutableFile(p)) return { path: p };
  for (const c of tool.commands) {
    const p = onPath(c, env);
    if (p) return { path: p };
  }
  for (const p of tool.caches?.(env) ?? []) if (isExecutableFile(p)) return { path: p };
  return { missing: `npm test needs ${tool.what}, which was not found: ${tool.howTo}` };
}

/** Root on a Debian-family system with apt-get: the one case where we install ourselves. */
function canApt(env) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return false;
  if (!onPath('apt-get', env)) return false;
  try {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    return /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(osRelease);
  } catch {
    return false;
  }
}

function run(command, args, env) {
  console.error(`pretest: ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

/** Install what is missing with apt-get where we may; returns the lines of what is still missing. */
export function ensureTools(env = process.env, log = (line) => console.error(line)) {
  const missing = TOOLS.filter((t) => findTool(t.name, env).missing);
  if (missing.length === 0) return [];
  // A tool whose variable names a wrong file is the user's choice to fix, not ours to override.
  const installable = missing.filter((t) => !env[t.env]);
  if (installable.length > 0 && canApt(env)) {
    const packages = installable.map((t) => t.debianPackage);
    log(
      `pretest: ${installable.map((t) => t.what).join(', ')} not found; installing Debian's ${packages.join(', ')} with apt-get (root on a Debian-family system)`,
    );
    if (run('apt-get', ['update', '-q'], env))
      run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], env);
  }
  return missing.map((t) => findTool(t.name, env).missing).filter((m) => m !== undefined);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const still = ensureTools();
  for (const line of still) console.error(line);
  if (still.length > 0) process.exit(1);
  console.error(`pretest: found ${TOOLS.map((t) => `${t.name} ${findTool(t.name).path}`).join(', ')}`);
}
