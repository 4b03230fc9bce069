/**
 * History from the indexer on the explorer page (only when the node names one): a market's
 * candles as a chart (TradingView's lightweight-charts, bundled as svc-charts.js beside the
 * page and loaded on first use) with a 1m/5m/1h/1d switch and a volume histogram, the
 * market's recent trades, and an owner's fills. The rest of the page does not wait for it:
 * an unreachable indexer is said in the panel, and nothing else changes.
 *
 * State for tests and scripts on the panel: data-state (loading | ready | empty |
 * unreachable | error), and on the market panel data-resolution and data-candles (the
 * bars the chart's candlestick series holds, read back from the library). Prices and
 * quantities are drawn as JavaScript numbers (exact up to 2^53; the tables show the
 * indexer's decimal strings as they are).
 */
import type { CandlestickData, HistogramData, IChartApi, ISeriesApi, UTCTimestamp } from 'lightweight-charts';
import { ExplorerApiError } from './api.js';
import { chartRange, indexerApi, IndexerUnreachable, RESOLUTIONS } from './indexer-api.js';
import type { Candle, Fill, Resolution, Trade } from './indexer-api.js';
import { el, marketLink, ownerLink, txLink } from './render.js';

/** Rows of recent trades and of an owner's fills. */
export const HISTORY_ROWS = 50;

/** The chart's narrowest window, in bars. */
const MIN_VISIBLE_BARS = 60;

type ChartsModule = typeof import('lightweight-charts');

let chartsLoading: Promise<ChartsModule> | undefined;

/** The charting bundle, loaded once per page. */
function loadCharts(): Promise<ChartsModule> {
  chartsLoading ??= import(new URL('./svc-charts.js', import.meta.url).href) as Promise<ChartsModule>;
  chartsLoading.catch(() => (chartsLoading = undefined)); // let a later view try again
  return chartsLoading;
}

/**
 * The market's history panel; fills itself from the indexer at `base`. Returns the panel
 * and a function that frees the chart (call it when the view goes).
 */
export function marketHistory(base: string, marketId: string): { panel: HTMLElement; dispose: () => void } {
  const api = indexerApi(base);
  const chartBox = el('div', { id: 'chart', class: 'chart' });
  const tradesBox = el('div', { id: 'trades', class: 'table-wrap' }, el('p', { class: 'note' }, 'loading…'));
  const switcher = el('div', { class: 'resolutions', role: 'group', 'aria-label': 'candle resolution' });
  const panel = el(
    'section',
    { id: 'history', class: 'history', 'data-state': 'loading', 'data-resolution': '1m' },
    el('div', { class: 'title-row' }, el('h3', {}, 'Price and volume (indexer)'), switcher),
    chartBox,
    el('p', { class: 'note attribution' }, 'Chart: ', el('a', { href: TRADINGVIEW, rel: 'noopener' }, LIBRARY), '.'),
    el('h3', {}, 'Recent trades'),
    tradesBox,
  );
  let chart: IChartApi | undefined;
  let candles: ISeriesApi<'Candlestick'> | undefined;
  let volume: ISeriesApi<'Histogram'> | undefined;
  let disposed = false;
  let seq = 0;

  const fail = (err: unknown, box: HTMLElement) => {
    const unreachable = err instanceof IndexerUnreachable;
    panel.dataset.state = unreachable ? 'unreachable' : 'error';
    box.replaceChildren(failure(base, err));
  };

  const draw = async (resolution: Resolution): Promise<void> => {
    const mine = ++seq;
    panel.dataset.resolution = resolution;
    for (const b of Array.from(switcher.querySelectorAll('button'))) {
      b.setAttribute('aria-pressed', String(b.dataset.resolution === resolution));
    }
    const seconds = RESOLUTIONS.find((r) => r.name === resolution)!.seconds;
    const { from, to } = chartRange(seconds, Date.now());
    try {
      const answer = api.candles(marketId, resolution, from, to);
      const [{ candles: rows }, charts] = await Promise.all([answer, loadCharts()]);
      if (disposed || mine !== seq) return;
      if (rows.length === 0) {
        chart?.remove();
        chart = candles = volume = undefined;
        panel.dataset.candles = '0';
        chartBox.replaceChildren(noTrades());
        if (panel.dataset.state !== 'unreachable') panel.dataset.state = 'empty';
        return;
      }
      if (!chart) {
        chartBox.replaceChildren();
        chart = charts.createChart(chartBox, CHART_OPTIONS);
        candles = chart.addSeries(charts.CandlestickSeries, CANDLE_OPTIONS);
        volume = chart.addSeries(charts.HistogramSeries, VOLUME_OPTIONS);
        volume.priceScale().applyOptions({ scaleMargins: { top: 0.78, bottom: 0 } });
        candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.26 } });
      }
      candles!.setData(rows.map(bar));
      volume!.setData(rows.map(volumeBar));
      // All bars, but at least MIN_VISIBLE_BARS wide, so a few bars are not stretched across the pane.
      const n = rows.length;
      chart.timeScale().setVisibleLogicalRange({ from: n - Math.max(n, MIN_VISIBLE_BARS) - 0.5, to: n + 1.5 });
      panel.dataset.candles = String(candles!.data().length);
      panel.dataset.state = 'ready';
    } catch (err) {
      if (disposed || mine !== seq) return;
      chart?.remove();
      chart = candles = volume = undefined;
      delete panel.dataset.candles;
      fail(err, chartBox);
    }
  };

  for (const { name } of RESOLUTIONS) {
    const b = el('button', { type: 'button', 'data-resolution': name, 'aria-pressed': String(name === '1m') }, name);
    b.addEventListener('click', () => void draw(name));
    switcher.append(b);
  }

  void draw('1m');
  api.trades(marketId, HISTORY_ROWS).then(
    ({ trades }) => {
      if (disposed) return;
      tradesBox.replaceChildren(trades.length === 0 ? noTrades() : tradesTable(trades));
    },
    (err: unknown) => {
      if (!disposed) tradesBox.replaceChildren(failure(base, err));
    },
  );
  return {
    panel,
    dispose: () => {
      disposed = true;
      chart?.remove();
    },
  };
}

/** The owner's fills panel, filled from the indexer at `base`. */
export function ownerFills(base: string, owner: string): HTMLElement {
  const box = el('div', { class: 'table-wrap' }, el('p', { class: 'note' }, 'loading…'));
  const heading = el('h3', {}, 'Fills (indexer)');
  const panel = el('section', { id: 'fills', class: 'history', 'data-state': 'loading' }, heading, box);
  indexerApi(base)
    .fills(owner, HISTORY_ROWS)
    .then(
      ({ fills }) => {
        panel.dataset.state = fills.length === 0 ? 'empty' : 'ready';
        box.replaceChildren(fills.length === 0 ? el('p', { class: 'note empty' }, 'no fills yet') : fillsTable(fills));
      },
      (err: unknown) => {
        panel.dataset.state = err instanceof IndexerUnreachable ? 'unreachable' : 'error';
        box.replaceChildren(failure(base, err));
      },
    );
  return panel;
}

const CHART_OPTIONS = {
  height: 320,
  autoSize: false,
  // The library's own logo is injected with an inline <style>, which the page's CSP refuses;
  // the attribution its licence's NOTICE asks for is the link under the chart instead.
  layout: { background: { color: '#ffffff' }, textColor: '#6a7383', fontSize: 12, attributionLogo: false },
  grid: { vertLines: { color: '#f0f2f5' }, horzLines: { color: '#f0f2f5' } },
  rightPriceScale: { borderColor: '#e2e5ea' },
  timeScale: { borderColor: '#e2e5ea', timeVisible: true, secondsVisible: false },
} as const;

const TRADINGVIEW = 'https://www.tradingview.com/';
const LIBRARY = 'TradingView Lightweight Charts™';
const UP = '#1b7f4b';
const DOWN = '#c0392b';
const CANDLE_OPTIONS = { upColor: UP, downColor: DOWN, borderVisible: false, wickUpColor: UP, wickDownColor: DOWN };
const VOLUME_OPTIONS = { color: '#9fb3ff', priceFormat: { type: 'volume' }, priceScaleId: 'volume' } as const;

function volumeBar(c: Candle): HistogramData<UTCTimestamp> {
  const color = Number(c.close) >= Number(c.open) ? '#a3d9b8' : '#f1b0a8';
  return { time: c.time as UTCTimestamp, value: Number(c.volume), color };
}

function noTrades(): HTMLElement {
  return el('p', { class: 'note empty' }, 'no trades yet');
}

function cells(values: Array<Node | string | number>): HTMLTableCellElement[] {
  return values.map((v) => el('td', {}, v));
}

function historyTable(className: string, head: string[], rows: HTMLTableRowElement[]): HTMLElement {
  const thead = el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h))));
  return el('table', { class: className }, thead, el('tbody', {}, ...rows));
}

function bar(c: Candle): CandlestickData<UTCTimestamp> {
  const t = c.time as UTCTimestamp;
  return { time: t, open: Number(c.open), high: Number(c.high), low: Number(c.low), close: Number(c.close) };
}

function failure(base: string, err: unknown): HTMLElement {
  const why = err instanceof Error ? err.message : String(err);
  if (err instanceof IndexerUnreachable) {
    const text = `The indexer at ${base} is unreachable (${why}); the rest of the page works without it.`;
    return el('p', { class: 'note unreachable' }, text);
  }
  const status = err instanceof ExplorerApiError ? ` (${err.status})` : '';
  return el('p', { class: 'note unreachable' }, `The indexer at ${base} answered an error${status}: ${why}`);
}

function time(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}`;
}

function tradesTable(trades: Trade[]): HTMLElement {
  const head = ['Trade', 'Time (UTC)', 'Taker side', 'Price', 'Quantity', 'Maker', 'Taker', 'Block', 'Transaction'];
  const rows = trades.map((t) =>
    el(
      'tr',
      { 'data-trade-id': String(t.trade_id) },
      ...cells([t.trade_id, time(t.timestamp_ms), t.taker_side, t.price, t.quantity, ownerLink(t.maker_owner)]),
      ...cells([ownerLink(t.taker_owner), t.block_height, txLink(t.transaction_id)]),
    ),
  );
  return historyTable('trades', head, rows);
}

function fillsTable(fills: Fill[]): HTMLElement {
  const head = ['Market', 'Trade', 'Time (UTC)', 'Order id', 'Role', 'Side', 'Price', 'Quantity', 'Counterparty'];
  head.push('Transaction');
  const rows = fills.map((f) =>
    el(
      'tr',
      { 'data-trade-id': String(f.trade_id), 'data-order-id': f.order_id },
      ...cells([marketLink(f.market_id, ''), f.trade_id, time(f.timestamp_ms), f.order_id, f.role, f.side]),
      ...cells([f.price, f.quantity, ownerLink(f.counterparty), txLink(f.transaction_id)]),
    ),
  );
  return historyTable('fills', head, rows);
}
