// Bundles the browser ES modules (no Node built-ins) into dist/browser/:
//   svc-vdf.js + svc-vdf.wasm  the standalone verifier (src/browser), with its .wasm beside it;
//   svc-sdk.js                 the SDK (src/sdk: its channel client with automatic resume,
//                              the order book client, keys), which the explorer page loads.
//   svc-charts.js              TradingView's lightweight-charts (npm, Apache-2.0): the explorer
//                              page's candle chart, bundled so the page needs no CDN.
// Fails loudly when an input is missing (run `npm run build:wasm && npm run build:ts` first),
// and when a bundle would pull in a Node built-in.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const source = 'src/browser/index.ts';
const wasm = 'build/vdf.wasm';
const bundles = [
  { entry: 'dist/src/browser/index.js', outfile: 'dist/browser/svc-vdf.js' },
  { entry: 'dist/src/sdk/index.js', outfile: 'dist/browser/svc-sdk.js' },
];
if (!existsSync(source)) {
  console.log(`build-browser: ${source} does not exist, nothing to bundle`);
  process.exit(0);
}
for (const f of [...bundles.map((b) => b.entry), wasm]) {
  if (!existsSync(f)) {
    console.error(`build-browser: ${f} is missing (run npm run build:wasm && npm run build:ts first)`);
    process.exit(1);
  }
}

// A Node built-in in a browser module's import graph is a bug: make esbuild fail on it.
const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:|^(fs|path|url|crypto|os|worker_threads|child_process)$/ }, (args) => ({
      errors: [{ text: `browser bundle must not import the Node built-in "${args.path}" (from ${args.importer})` }],
    }));
  },
};

mkdirSync('dist/browser', { recursive: true });
for (const { entry, outfile } of bundles) {
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile,
    logLevel: 'warning',
    plugins: [noNodeBuiltins],
  });
}
// The charting library, as the few names the page uses (tree-shaken, minified: ~160 KB).
await build({
  stdin: {
    contents: "export { createChart, CandlestickSeries, HistogramSeries } from 'lightweight-charts';",
    resolveDir: '.',
    loader: 'js',
  },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/browser/svc-charts.js',
  logLevel: 'warning',
  plugins: [noNodeBuiltins],
});
copyFileSync(wasm, 'dist/browser/svc-vdf.wasm');
console.log(
  `build-browser: ${bundles.map((b) => b.outfile).join(', ')}, dist/browser/svc-charts.js, dist/browser/svc-vdf.wasm`,
);
