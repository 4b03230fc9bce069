// Bundles the standalone browser VDF verifier (an ES module with no Node built-ins)
// and copies its .wasm beside it: dist/browser/svc-vdf.js + dist/browser/svc-vdf.wasm.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const entry = 'dist/src/vdf/browser.js';
if (!existsSync(entry)) {
  console.log(`build-browser: ${entry} not built yet, skipping the browser bundle`);
  process.exit(0);
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
});
copyFileSync('build/vdf.wasm', 'dist/browser/svc-vdf.wasm');
console.log('build-browser: dist/browser/svc-vdf.js, dist/browser/svc-vdf.wasm');
