/**
 * GET /verifier/index.html on the REST port: the standalone browser VDF verifier
 * (dist/browser/svc-vdf.js + svc-vdf.wasm, no Node built-ins) and a small page that
 * fetches the newest ticks from this node's /api/v1 and verifies them in the visitor's
 * own browser, showing each tick (number, time, transactions, iterations, verdict) and the
 * link between consecutive ticks as it goes. "tamper" shows what a failure looks like;
 * asking for more than the REST limit (100) says so. URL parameters: ?ticks=N&tamper=1. Front-end developers can copy the page or
 * import the module from here; /api/v1 answers with CORS headers so other origins can too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MAX_RECENT_LIMIT } from '../limits.js';

export interface VerifierAsset {
  type: string;
  body: Buffer | string;
}

const PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>svc tick verifier</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#111}
code,.mono{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
.mono{white-space:nowrap}
table{border-collapse:collapse;width:100%;margin-top:1rem}
th{text-align:left;font-weight:600;border-bottom:2px solid #ddd;padding:.3rem .5rem}
td{padding:.25rem .5rem;vertical-align:top}
tr.tick td{border-top:1px solid #eee}
tr.link td{color:#555;font-size:12px;padding-top:0;padding-bottom:0}
.ok{color:#15803d}.bad{color:#b91c1c;font-weight:600}.pending{color:#888}
#summary{font-weight:600;margin:.5rem 0}#summary.ok{color:#15803d}#summary.bad{color:#b91c1c}
#notice{background:#fff7d6;border:1px solid #e6c200;padding:.4rem .6rem;display:none}
label{margin-right:1rem}
</style>
<h1>svc tick verifier</h1>
<p>Fetches the newest ticks from this node's <code>/api/v1</code> and checks them here, in your browser,
with <code>svc-vdf.js</code> and its WebAssembly: each tick's VDF proof (Wesolowski, RSA-2048 group), and
the chain: every tick's <code>previous_output</code> must be the output of the tick before it, with no
tick missing. Nothing is taken on trust from the node.</p>
<form id="form">
<label>ticks <input id="limit" name="ticks" type="number" min="1" value="20" style="width:5rem"></label>
<label><input id="tamper" name="tamper" type="checkbox"> tamper with one tick first (to see what a failure looks like)</label>
<button id="run" type="submit">verify</button>
</form>
<p id="notice"></p>
<p id="summary" class="pending">loading the verifier…</p>
<table id="ticks"><thead><tr><th>tick</th><th>time (UTC)</th><th>txs</th><th>iterations</th><th>output</th><th>verdict</th></tr></thead><tbody></tbody></table>
<script type="module">
import { createVerifier, parseRestTick, checkChain } from './svc-vdf.js';
const MAX = ${MAX_RECENT_LIMIT};
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.has('ticks')) $('limit').value = params.get('ticks');
if (params.has('tamper')) $('tamper').checked = params.get('tamper') !== '0';
const verifier = await createVerifier(new URL('./svc-vdf.wasm', import.meta.url));
const short = (hex) => hex.slice(0, 8) + '…' + hex.slice(-8);
const iso = (us) => new Date(Math.floor(us / 1000)).toISOString().slice(0, 19) + '.' + String(us % 1000000).padStart(6, '0') + 'Z';
const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
function cell(tr, text, cls) { const td = tr.insertCell(); td.textContent = text; if (cls) td.className = cls; return td; }
function say(el, text, cls) { el.textContent = text; el.className = cls || ''; }

async function run() {
  const body = $('ticks').tBodies[0];
  body.replaceChildren();
  delete document.body.dataset.verdict;
  const asked = Math.floor(Number($('limit').value));
  const notice = $('notice');
  notice.style.display = 'none';
  if (!(asked >= 1)) { say($('summary'), 'enter a number of ticks from 1 to ' + MAX, 'bad'); return; }
  const limit = Math.min(asked, MAX);
  if (asked > MAX) {
    notice.textContent = 'You asked for ' + asked + ' ticks; this page verifies at most ' + MAX + ' at a time (the node lists at most ' + MAX +
      ' recent ticks per request), so it verifies the newest ' + MAX + '. To check a longer range, run: svc verify --from A --to B';
    notice.style.display = 'block';
  }
  say($('summary'), 'fetching ' + limit + ' ticks…', 'pending');
  const recent = await (await fetch('../api/v1/ticks/recent?limit=' + limit)).json();
  const numbers = recent.ticks.map((t) => t.tick_number).sort((a, b) => a - b);
  const ticks = [];
  for (const n of numbers) ticks.push((await (await fetch('../api/v1/tick/' + n + '?transactions=true')).json()).tick);
  let tampered = null;
  if ($('tamper').checked && ticks.length >= 2) {
    const k = Math.floor(ticks.length / 2);
    const t = ticks[k];
    const out = t.vdf_proof.output;
    ticks[k] = { ...t, vdf_proof: { ...t.vdf_proof, output: out.slice(0, -1) + (out.endsWith('0') ? '1' : '0') } };
    tampered = t.tick_number;
  }
  const rows = ticks.map((t, i) => {
    if (i > 0) {
      const link = body.insertRow();
      link.className = 'link';
      link.dataset.link = String(t.tick_number);
      cell(link, '');
      const td = cell(link, '↳ previous_output of ' + t.tick_number + ': ' + short(t.previous_output));
      td.colSpan = 4;
      cell(link, '…', 'pending');
    }
    const tr = body.insertRow();
    tr.className = 'tick';
    tr.dataset.tick = String(t.tick_number);
    cell(tr, String(t.tick_number), 'mono');
    cell(tr, iso(t.timestamp), 'mono');
    cell(tr, String(t.transaction_count));
    cell(tr, String(t.vdf_iterations));
    cell(tr, short(t.vdf_proof.output), 'mono');
    cell(tr, 'waiting', 'pending');
    return tr;
  });
  let bad = 0;
  for (let i = 0; i < ticks.length; i++) {
    const t = ticks[i];
    const tr = rows[i];
    const verdictCell = tr.cells[5];
    say(verdictCell, 'verifying…', 'pending');
    await frame();
    if (i > 0) {
      // The link between this tick and the one before (src/vdf/chain.ts: breaks and gaps).
      const linkRow = tr.previousElementSibling;
      const chain = checkChain([parseRestTick(ticks[i - 1]), parseRestTick(t)]);
      const f = chain.broken.concat(chain.gaps)[0];
      const linkCell = linkRow.cells[2];
      if (f) { say(linkCell, '✗ ' + f.code + ': ' + f.message, 'bad'); linkRow.dataset.verdict = f.code; bad++; }
      else { say(linkCell, '✓ is the output of ' + ticks[i - 1].tick_number, 'ok'); linkRow.dataset.verdict = 'ok'; }
    }
    const v = verifier.verifyTick(t);
    tr.dataset.verdict = v.ok ? 'ok' : v.code;
    if (v.ok) say(verdictCell, '✓ proof verifies', 'ok');
    else { say(verdictCell, '✗ ' + v.code + ': ' + v.message + (t.tick_number === tampered ? ' (tampered on purpose)' : ''), 'bad'); bad++; }
  }
  const range = numbers.length ? ' (' + numbers[0] + '..' + numbers[numbers.length - 1] + ')' : '';
  if (bad === 0) say($('summary'), 'verified ' + ticks.length + ' ticks' + range + ': every proof verifies, chain unbroken', 'ok');
  else say($('summary'), 'INVALID: ' + bad + ' failure' + (bad === 1 ? '' : 's') + ' in ' + ticks.length + ' ticks' + range + (tampered ? ' (tick ' + tampered + ' was tampered with on purpose)' : ''), 'bad');
  document.body.dataset.verdict = bad === 0 ? 'ok' : 'invalid';
}
function start(e) { if (e) e.preventDefault(); run().catch((err) => { say($('summary'), String(err), 'bad'); document.body.dataset.verdict = 'error'; }); }
$('form').addEventListener('submit', start);
start();
</script>
</html>
`;

/** The page and the bundle, read once; the bundle is missing only if `npm run build` did not run. */
export function loadVerifierAssets(): Map<string, VerifierAsset> {
  const assets = new Map<string, VerifierAsset>([['index.html', { type: 'text/html; charset=utf-8', body: PAGE }]]);
  const dir = new URL('../../../../browser/', import.meta.url);
  for (const [name, type] of [
    ['svc-vdf.js', 'text/javascript; charset=utf-8'],
    ['svc-vdf.wasm', 'application/wasm'],
  ] as const) {
    const path = fileURLToPath(new URL(name, dir));
    if (existsSync(path)) assets.set(name, { type, body: readFileSync(path) });
  }
  return assets;
}
