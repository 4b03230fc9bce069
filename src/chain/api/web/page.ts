/**
 * The explorer page's HTML shell and stylesheet. The behaviour is in app/ (TypeScript
 * compiled to plain ES modules that the browser loads from /explorer/).
 */

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/explorer/style.css">
<script type="module" src="/explorer/main.js"></script>
</head>
<body>
<header class="bar">
  <a class="brand" href="#/">svc <span>explorer</span></a>
  <form id="search" role="search" autocomplete="off">
    <input id="q" name="q" spellcheck="false" aria-label="search" placeholder="Block height, transaction id, owner (Base58) or market id">
    <button type="submit">Search</button>
    <span id="search-error" class="search-error" role="alert"></span>
  </form>
  <div id="live" class="live" data-state="connecting" title="WebSocket /ws/blocks"><i></i><span>connecting…</span></div>
</header>
<section id="stats" class="stats" aria-label="node status"></section>
<main class="grid">
  <aside class="panel">
    <h2>Latest blocks</h2>
    <table class="blocks">
      <thead><tr><th>Height</th><th>Time (UTC)</th><th class="num">Txs</th><th class="num">Batches</th></tr></thead>
      <tbody id="blocks-body"></tbody>
    </table>
  </aside>
  <section id="view" class="panel view" aria-live="polite"><p class="note">loading…</p></section>
</main>
<footer>Served by this node: explorer REST <a href="/openapi.json">/openapi.json</a>, live blocks on <code>/ws/blocks</code>. Tick proofs are verified in your browser with WebAssembly.</footer>
</body>
</html>
`;

export const STYLE_CSS = `:root {
  --bg: #f4f5f7; --panel: #fff; --line: #e2e5ea; --text: #1c2330; --muted: #6a7383;
  --accent: #3b5bdb; --accent-soft: #edf1ff; --ok: #1b7f4b; --bad: #c0392b; --warn: #b7791f;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code { font: 12.5px var(--mono); }
h2 { font-size: 17px; margin: 0 0 12px; }
h3 { font-size: 14px; margin: 22px 0 8px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }

.bar { display: flex; align-items: center; gap: 20px; padding: 12px 24px; background: #141a26; color: #fff; }
.brand { color: #fff; font-weight: 700; font-size: 18px; letter-spacing: .01em; }
.brand span { color: #9fb3ff; font-weight: 500; }
.brand:hover { text-decoration: none; }
#search { flex: 1; display: flex; gap: 8px; position: relative; max-width: 760px; }
#search input { flex: 1; padding: 8px 12px; border-radius: 8px; border: 1px solid #2c3547; background: #1d2535; color: #fff; font: 14px var(--mono); }
#search input::placeholder { color: #8691a6; font-family: system-ui, sans-serif; }
#search input[aria-invalid="true"] { border-color: #e57373; }
#search button { padding: 8px 16px; border-radius: 8px; border: 0; background: var(--accent); color: #fff; font-weight: 600; cursor: pointer; }
.search-error { position: absolute; top: 100%; left: 0; margin-top: 4px; color: #ffb4a9; font-size: 12.5px; }
.live { display: flex; align-items: center; gap: 8px; font-size: 13px; color: #c9d1e0; white-space: nowrap; }
.live i { width: 9px; height: 9px; border-radius: 50%; background: var(--warn); }
.live[data-state="live"] i { background: #2ecc71; box-shadow: 0 0 0 3px rgba(46, 204, 113, .25); }
.live[data-state="offline"] i { background: #e74c3c; }

.stats { display: grid; grid-template-columns: repeat(4, minmax(120px, 1fr)) minmax(220px, 2fr); gap: 12px; padding: 18px 24px 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; min-width: 0; }
.card .label { display: block; color: var(--muted); font-size: 12px; }
.card .value { display: block; font-size: 20px; font-weight: 650; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.card[data-stat="root"] .value { font: 600 15px/28px var(--mono); }

.grid { display: grid; grid-template-columns: 340px minmax(0, 1fr); gap: 16px; padding: 16px 24px; align-items: start; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 16px; min-width: 0; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px; padding: 6px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
td { padding: 6px 8px; border-bottom: 1px solid #f0f2f5; white-space: nowrap; }
td code { font-size: 12px; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.num { text-align: right; }
.blocks tbody tr { cursor: pointer; }
.blocks tbody tr:hover td { background: var(--accent-soft); }
.blocks tbody tr.selected td { background: var(--accent-soft); font-weight: 600; }
.blocks td.time { color: var(--muted); font-variant-numeric: tabular-nums; }
@keyframes fresh { from { background: #fff3bf; } to { background: transparent; } }
.blocks tr.fresh td { animation: fresh 1.5s ease-out; }
.table-wrap { overflow-x: auto; }
.note { color: var(--muted); font-size: 12.5px; margin: 6px 0; }

.title-row { display: flex; align-items: baseline; justify-content: space-between; }
.pager { display: flex; gap: 14px; font-size: 13px; align-items: baseline; }
.latest-link { padding: 1px 9px; border-radius: 10px; background: #fff3bf; color: #7a5a00; font-weight: 600; }
.fields { display: grid; grid-template-columns: 170px minmax(0, 1fr); gap: 6px 16px; margin: 0 0 8px; }
.fields dt { color: var(--muted); }
.fields dd { margin: 0; overflow-wrap: anywhere; }
.verify { display: flex; align-items: center; gap: 12px; margin: 14px 0 4px; padding: 10px 12px; background: #f7f8fb; border: 1px solid var(--line); border-radius: 8px; }
.verify button { padding: 7px 14px; border-radius: 7px; border: 1px solid var(--accent); background: #fff; color: var(--accent); font-weight: 600; cursor: pointer; white-space: nowrap; }
.verify button:hover { background: var(--accent-soft); }
.verify button:disabled { opacity: .6; cursor: wait; }
.verdict { color: var(--muted); font-size: 13px; }
.verdict.ok { color: var(--ok); font-weight: 600; }
.verdict.bad { color: var(--bad); font-weight: 600; }
.kind { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; background: #eef0f4; }
.kind.order { background: #e7f0ff; color: #2748a8; }
.kind.cancel { background: #fdecea; color: #a93226; }
.kind.market { background: #e8f6ee; color: #1b7f4b; }
.message.error h2 { color: var(--bad); }
.history { margin-top: 10px; }
.resolutions { display: flex; gap: 4px; }
.resolutions button { padding: 3px 10px; border-radius: 6px; border: 1px solid var(--line); background: #fff; color: var(--text); font: 600 12px var(--mono); cursor: pointer; }
.resolutions button[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.chart { position: relative; min-height: 320px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.chart .note { padding: 140px 0; text-align: center; font-size: 14px; }
.note.unreachable { color: var(--bad); }
footer { padding: 4px 24px 24px; color: var(--muted); font-size: 12.5px; }
@media (max-width: 900px) {
  .grid { grid-template-columns: 1fr; }
  .stats { grid-template-columns: repeat(2, 1fr); }
  .card[data-stat="root"] { grid-column: span 2; }
  .bar { flex-wrap: wrap; }
}
`;
