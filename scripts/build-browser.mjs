// Bundles the standalone browser VDF verifier (an ES module with no Node built-ins)
// and copies its .wasm beside it: dist/browser/svc-vdf.js + dist/browser/svc-vdf.wasm.
// Fails loudly when an input is missing (run `npm run build:wasm && npm run build:ts` first),
// and when the bundle would pull in a Node built-in.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const source = 'src/browser/index.ts';
const entry = 'dist/src/browser/index.js';
const wasm = 'build/vdf.wasm';
if (!existsSync(source)) {
  console.log(`build-browser: ${source} does not exist, nothing to bundle`);
  process.exit(0);
}
for (const f of [entry, wasm]) {
  if (!existsSync(f)) {
    console.error(`build-browser: ${f} is missing (run npm run build:wasm && npm run build:ts first)`);
    process.exit(1);
  }
}
mkdirSync('dist/browser', { recursive: true });
await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/browser/svc-vdf.js',
  logLevel: 'warning',
  // A Node built-in in the verifier's import graph is a bug: make esbuild fail on it.
  plugins: [
    {
      name: 'no-node-builtins',
      setup(b) {
        b.onResolve({ filter: /^node:|^(fs|path|url|crypto|os|worker_threads|child_process)$/ }, (args) => ({
          errors: [{ text: `browser bundle must not import the Node built-in "${args.path}" (from ${args.importer})` }],
        }));
      },
    },
  ],
});
copyFileSync(wasm, 'dist/browser/svc-vdf.wasm');
console.log('build-browser: dist/browser/svc-vdf.js, dist/browser/svc-vdf.wasm');
