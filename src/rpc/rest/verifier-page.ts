/**
 * GET /verifier/index.html on the REST port: the standalone browser VDF verifier
 * (dist/browser/svc-vdf.js + svc-vdf.wasm, no Node built-ins) and a small page that
 * fetches the newest ticks from this node's /api/v1 and verifies them, chaining
 * included, in the visitor's own browser. Front-end developers can copy the page or
 * import the module from here; /api/v1 answers with CORS headers so other origins can too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface VerifierAsset {
  type: string;
  body: Buffer | string;
}

const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>svc tick verifier</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:48rem}code,pre{font:13px ui-monospace,monospace}
.ok{color:#15803d}.bad{color:#b91c1c}</style>
<h1>svc tick verifier</h1>
<p>Fetches the newest ticks from this node's <code>/api/v1</code> and checks their VDF proofs and
their chaining here, in your browser, with <code>svc-vdf.js</code> and its WebAssembly.</p>
<p><label>ticks <input id="limit" type="number" min="1" max="100" value="20"></label>
<button id="run">verify</button></p>
<pre id="out">loading…</pre>
<script type="module">
import { createVerifier } from './svc-vdf.js';
const out = document.getElementById('out');
const verifier = await createVerifier(new URL('./svc-vdf.wasm', import.meta.url));
async function run() {
  out.className = '';
  out.textContent = 'fetching…';
  const limit = Math.max(1, Math.min(100, Number(document.getElementById('limit').value) || 20));
  const recent = await (await fetch('../api/v1/ticks/recent?limit=' + limit)).json();
  const numbers = recent.ticks.map((t) => t.tick_number).sort((a, b) => a - b);
  const ticks = [];
  for (const n of numbers) ticks.push(await (await fetch('../api/v1/tick/' + n)).json());
  const verdict = verifier.verifyTicks(ticks);
  const first = numbers[0], last = numbers[numbers.length - 1];
  out.className = verdict.ok ? 'ok' : 'bad';
  out.textContent = verdict.ok
    ? 'verified ' + ticks.length + ' ticks (' + first + '..' + last + ')'
    : 'INVALID ticks at indexes ' + verdict.invalid.join(', ') + '\\n' + JSON.stringify(verdict.ticks.filter((t) => !t.ok), null, 2);
  document.body.dataset.verdict = verdict.ok ? 'ok' : 'invalid';
}
document.getElementById('run').addEventListener('click', () => run().catch((e) => { out.className = 'bad'; out.textContent = String(e); }));
await run();
</script>
</html>
`;

/** The page and the bundle, read once; the bundle is missing only if `npm run build` did not run. */
export function loadVerifierAssets(): Map<string, VerifierAsset> {
  const assets = new Map<string, VerifierAsset>([['index.html', { type: 'text/html; charset=utf-8', body: PAGE }]]);
  const dir = new URL('../../../browser/', import.meta.url);
  for (const [name, type] of [
    ['svc-vdf.js', 'text/javascript; charset=utf-8'],
    ['svc-vdf.wasm', 'application/wasm'],
  ] as const) {
    const path = fileURLToPath(new URL(name, dir));
    if (existsSync(path)) assets.set(name, { type, body: readFileSync(path) });
  }
  return assets;
}
