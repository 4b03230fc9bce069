// `npm start`'s prestart step: builds (npm run build: TypeScript, WASM, browser bundle) when
// there is no build yet or a source file is newer than the build, so `npm start` always runs
// the code in the work tree. Prints why it builds; prints nothing when the build is current.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the node needs at run time, each written by every `npm run build`. */
export const OUTPUTS = [
  'build/vdf.wasm',
  'dist/src/cli/main.js',
  'dist/workers/vdf.worker.js',
  'dist/browser/svc-vdf.js',
];
/** What those outputs are built from. */
export const INPUTS = ['src', 'assembly', 'workers', 'scripts/build-browser.mjs', 'tsconfig.json', 'asconfig.json'];

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Newest file under `path` (a file or a directory tree): [mtime, path]. */
function newest(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return [0, path];
  }
  if (!st.isDirectory()) return [st.mtimeMs, path];
  let best = [st.mtimeMs, path];
  for (const entry of readdirSync(path)) {
    const n = newest(join(path, entry));
    if (n[0] > best[0]) best = n;
  }
  return best;
}

/** Why `root` needs a build, or undefined when its build is current. */
export function buildReason(root) {
  let oldest = Infinity;
  for (const out of OUTPUTS) {
    const t = mtimeOf(join(root, out));
    if (t === undefined) return `${out} does not exist yet`;
    oldest = Math.min(oldest, t);
  }
  for (const input of INPUTS) {
    const [t, path] = newest(join(root, input));
    if (t > oldest) return `${path.slice(root.length + 1)} changed since the last build`;
  }
  return undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  const reason = buildReason(root);
  if (reason) {
    console.error(`npm start: building first (${reason})`);
    const npm = process.env.npm_execpath;
    const r = npm
      ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
      : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
}
