/**
 * The explorer web page on the rpc port (--rpc-addr): `GET /` serves the page, and
 * `GET /explorer/<file>` its stylesheet, its ES modules (app/*.ts as compiled to
 * dist/src/chain/api/web/app/), the standalone WASM tick verifier (dist/browser/svc-vdf.js
 * and .wasm), the SDK bundle (dist/browser/svc-sdk.js: the channel client the page
 * follows blocks with) and the charting bundle (dist/browser/svc-charts.js: TradingView's
 * lightweight-charts). Everything is read once at start and served from memory; the page needs
 * nothing outside this node, so it works offline. A strict Content-Security-Policy allows
 * only this origin's scripts, styles, fetches and WebSocket (and WebAssembly compilation),
 * plus fetches to the indexer's origin when one is configured (--indexer-url): its URL is
 * written into the served HTML (`data-indexer` of <body>), so without it the page makes no
 * indexer request.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RpcRouteHook } from '../interface.js';
import { INDEX_HTML, STYLE_CSS } from './page.js';

export interface WebAsset {
  type: string;
  body: Buffer | string;
}

export interface ExplorerPageOptions {
  /** --indexer-url: the indexer the page reads candles, trades and fills from; none when undefined. */
  indexerUrl?: string | undefined;
}

/** The page's Content-Security-Policy: fetches to this origin, and to the indexer's when one is set. */
export function explorerCsp(indexerUrl: string | undefined): string {
  const connect = indexerUrl === undefined ? "'self'" : `'self' ${new URL(indexerUrl).origin}`;
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const JS = 'text/javascript; charset=utf-8';

/** The CSP of a page without an indexer. */
export const EXPLORER_CSP = explorerCsp(undefined);

/** The page's files by name; the bundles are missing only if `npm run build` did not run. */
export function loadExplorerAssets(): Map<string, WebAsset> {
  const assets = new Map<string, WebAsset>([['style.css', { type: 'text/css; charset=utf-8', body: STYLE_CSS }]]);
  const appDir = fileURLToPath(new URL('./app/', import.meta.url));
  for (const name of readdirSync(appDir)) {
    if (name.endsWith('.js')) assets.set(name, { type: JS, body: readFileSync(`${appDir}/${name}`) });
  }
  const browserDir = new URL('../../../../browser/', import.meta.url);
  for (const [name, type] of [
    ['svc-vdf.js', JS],
    ['svc-vdf.wasm', 'application/wasm'],
    ['svc-sdk.js', JS],
    ['svc-charts.js', JS],
  ] as const) {
    const path = fileURLToPath(new URL(name, browserDir));
    if (existsSync(path)) assets.set(name, { type, body: readFileSync(path) });
  }
  return assets;
}

/** The route hook the rpc face runs (src/node/faces.ts rpcRouteHooks). */
export function explorerPage(options: ExplorerPageOptions = {}): RpcRouteHook {
  let assets: Map<string, WebAsset> | undefined;
  const csp = explorerCsp(options.indexerUrl);
  const named = options.indexerUrl === undefined ? '' : ` data-indexer="${attr(options.indexerUrl)}"`;
  const html = INDEX_HTML.replace('<body>', `<body${named}>`);
  return (router) => {
    assets ??= loadExplorerAssets();
    const files = assets;
    router.get('/', (ctx) => {
      ctx.set('Content-Security-Policy', csp);
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
    });
    router.get('/explorer/:file', (ctx) => {
      const name = ctx.params.file ?? '';
      const asset = files.get(name);
      if (!asset) {
        ctx.status = 404;
        ctx.type = 'application/json';
        ctx.body = JSON.stringify({ error: `no such explorer file: ${name.slice(0, 80)}` });
        return;
      }
      ctx.set('Cache-Control', 'no-cache');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = asset.type;
      ctx.body = asset.body;
    });
  };
}

function attr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
