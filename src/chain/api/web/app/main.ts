/**
 * The explorer page (served at / on the rpc port): latest blocks arriving live over
 * the blocks channel of WS /ws (the SDK's channel client: each block once, in order, across
 * reconnects), a block's batches, transactions and events, search by height,
 * transaction id, owner or market, and in-browser verification of a block's ticks.
 * Views follow the location hash (#/block/12, #/tx/<id>, #/owner/<b58>, #/market/<uuid>),
 * so links, back and reload work. When the node names an indexer (--indexer-url), a
 * market's view adds its candle chart and recent trades and an owner's view its fills
 * (history.ts). The page writes its state to data-* attributes of #view and #live for
 * tests and scripts.
 */
import { api, ExplorerApiError, watchBlocks, type BlockDetail, type BlockRecord, type LiveState } from './api.js';
import { blockRow, blockView, marketView, messageView, ownerView, statsCards, txView } from './render.js';
import { marketHistory, ownerFills } from './history.js';
import { indexerUrl } from './indexer-api.js';
import { classify, fromHash, hashOf } from './search.js';
import { verifyOrder, verifyTransaction, type ProofVerdict } from './prove.js';
import { verifyBlock } from './verify.js';

const LIST_SIZE = 20;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const view = $<HTMLElement>('view');
const blocksBody = $<HTMLTableSectionElement>('blocks-body');
const live = $<HTMLElement>('live');
const stats = $<HTMLElement>('stats');
const input = $<HTMLInputElement>('q');
const searchError = $<HTMLElement>('search-error');

const listed = new Map<number, BlockRecord>();
let shownHeight = 0; // the block the view shows, 0 for another view
let renderSeq = 0; // a later navigation wins over a slower earlier one
let disposeView: (() => void) | undefined; // frees what the shown view holds (a chart)
const indexer = indexerUrl();

function setView(kind: string, key: string, content: HTMLElement): void {
  disposeView?.();
  disposeView = undefined;
  view.replaceChildren(content);
  view.dataset.view = kind;
  view.dataset.key = key;
  delete view.dataset.verdict;
}

function showError(err: unknown, what: string): void {
  const status = err instanceof ExplorerApiError ? err.status : 0;
  const title = status === 404 ? 'Not found' : status === 400 ? 'Not understood' : 'Something went wrong';
  setView('error', String(status), messageView(title, `${what}: ${err instanceof Error ? err.message : String(err)}`));
  shownHeight = 0;
}

function markSelected(): void {
  for (const row of Array.from(blocksBody.querySelectorAll('tr')))
    row.classList.toggle('selected', Number(row.dataset.height) === shownHeight);
}

function showBlock(d: BlockDetail): void {
  setView('block', String(d.block.height), blockView(d));
  shownHeight = d.block.height;
  markSelected();
  const button = $<HTMLButtonElement>('verify');
  const verdict = $<HTMLElement>('verdict');
  button.addEventListener('click', () => {
    button.disabled = true;
    verdict.className = 'verdict busy';
    view.dataset.verdict = 'running';
    verifyBlock(d, (text) => (verdict.textContent = text))
      .then((v) => {
        if (view.dataset.key !== String(d.block.height)) return;
        view.dataset.verdict = v.ok ? 'ok' : 'invalid';
        verdict.className = `verdict ${v.ok ? 'ok' : 'bad'}`;
        const ticks = `${v.ticks} tick${v.ticks === 1 ? '' : 's'}`;
        const chain = v.chained > 0 ? `, chaining of ${v.chained} consecutive pair${v.chained === 1 ? '' : 's'}` : '';
        verdict.textContent = v.ok
          ? `✓ verified ${ticks}: every VDF proof and batch hash${chain}`
          : `✗ ${v.problems.length} problem${v.problems.length === 1 ? '' : 's'}: ${v.problems.slice(0, 5).join('; ')}`;
      })
      .catch((err: unknown) => {
        view.dataset.verdict = 'error';
        verdict.className = 'verdict bad';
        verdict.textContent = `could not verify: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => (button.disabled = false));
  });
}

/**
 * A "verify this ..." button: runs the check in the browser and shows the verdict in
 * `out` (data-verdict ok | invalid | error, data-step: the failing step).
 */
function proofButton(button: HTMLButtonElement, out: HTMLElement, check: () => Promise<ProofVerdict>): void {
  button.addEventListener('click', () => {
    button.disabled = true;
    out.className = `${out.className.replace(/ (busy|ok|bad)\b/g, '')} busy`;
    out.dataset.verdict = 'running';
    delete out.dataset.step;
    out.textContent = 'verifying…';
    check()
      .then((v) => {
        out.dataset.verdict = v.ok ? 'ok' : 'invalid';
        if (!v.ok) out.dataset.step = v.step;
        out.className = out.className.replace(/ busy\b/, v.ok ? ' ok' : ' bad');
        out.textContent = v.text;
      })
      .catch((err: unknown) => {
        out.dataset.verdict = 'error';
        out.className = out.className.replace(/ busy\b/, ' bad');
        out.textContent = `could not verify: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => (button.disabled = false));
  });
}

function orderButton(button: HTMLButtonElement, out: HTMLElement): void {
  proofButton(button, out, () =>
    verifyOrder(button.dataset.market ?? '', button.dataset.order ?? '', button.dataset.owner ?? ''),
  );
}

async function route(): Promise<void> {
  const seq = ++renderSeq;
  const target = fromHash(location.hash);
  const current = () => seq === renderSeq;
  try {
    switch (target.kind) {
      case 'latest': {
        const status = await api.status();
        if (!current()) return;
        if (status.block_height === 0) {
          setView(
            'empty',
            '',
            messageView(
              'No blocks yet',
              'Blocks appear here as soon as the node sequences order book transactions.',
              'info',
            ),
          );
          return;
        }
        const d = await api.latest();
        if (current()) showBlock(d);
        return;
      }
      case 'block': {
        const d = await api.block(target.height);
        if (current()) showBlock(d);
        return;
      }
      case 'tx': {
        const t = await api.transaction(target.id);
        if (!current()) return;
        setView('tx', t.id, txView(t));
        proofButton($<HTMLButtonElement>('verify-tx'), $<HTMLElement>('tx-verdict'), () =>
          verifyTransaction(t.id, t.tx_hash),
        );
        const orderButtonEl = document.getElementById('verify-order') as HTMLButtonElement | null;
        if (orderButtonEl) orderButton(orderButtonEl, $<HTMLElement>('order-verdict'));
        break;
      }
      case 'owner': {
        const o = await api.ownerOrders(target.owner);
        if (!current()) return;
        setView('owner', o.owner, ownerView(o));
        if (indexer !== undefined) view.firstElementChild!.append(ownerFills(indexer, o.owner));
        for (const b of Array.from(view.querySelectorAll<HTMLButtonElement>('button.verify-order')))
          orderButton(b, b.parentElement!.querySelector<HTMLElement>('.order-verdict')!);
        break;
      }
      case 'market': {
        const events = await api.marketEvents(target.marketId);
        if (!current()) return;
        setView('market', target.marketId, marketView(target.marketId, events));
        if (indexer !== undefined) {
          const history = marketHistory(indexer, target.marketId);
          view.querySelector('.fields')!.after(history.panel);
          disposeView = history.dispose;
        }
        break;
      }
      case 'invalid':
        setView('error', '400', messageView('Not understood', target.message));
        break;
    }
    shownHeight = 0;
    markSelected();
  } catch (err) {
    if (current()) showError(err, 'the node answered');
  }
}

function addToList(b: BlockRecord, fresh: boolean): void {
  if (listed.has(b.height)) return;
  listed.set(b.height, b);
  const row = blockRow(b);
  row.addEventListener('click', () => (location.hash = `#/block/${b.height}`));
  row.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') location.hash = `#/block/${b.height}`;
  });
  const after = Array.from(blocksBody.children).find((r) => Number((r as HTMLElement).dataset.height) < b.height);
  blocksBody.insertBefore(row, after ?? null);
  if (fresh) {
    row.classList.add('fresh');
    setTimeout(() => row.classList.remove('fresh'), 1500);
  }
  while (blocksBody.children.length > LIST_SIZE) {
    const last = blocksBody.lastElementChild as HTMLElement;
    listed.delete(Number(last.dataset.height));
    last.remove();
  }
  blocksBody.dataset.latest = String(Math.max(...listed.keys()));
  markSelected();
}

let statsRunning = false;
let statsAgain = false;

/** Read /status into the cards; calls while a read is under way make one more read after it. */
async function refreshStats(): Promise<void> {
  if (statsRunning) {
    statsAgain = true;
    return;
  }
  statsRunning = true;
  try {
    do {
      statsAgain = false;
      try {
        stats.replaceChildren(...statsCards(await api.status()));
      } catch {
        // keep the last figures; the live indicator says when the node is away
      }
    } while (statsAgain);
  } finally {
    statsRunning = false;
  }
}

function onLive(state: LiveState): void {
  live.dataset.state = state;
  live.querySelector('span')!.textContent =
    state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'offline, retrying';
}

/** A newer block never replaces the one being read (a click on Verify must land): it is offered. */
function onBlock(d: BlockDetail): void {
  addToList(d.block, true);
  void refreshStats();
  if (view.dataset.view === 'empty') return showBlock(d); // the first block of the chain
  const latest = document.getElementById('latest-link') as HTMLAnchorElement | null;
  if (latest && d.block.height > shownHeight) {
    latest.href = `#/block/${d.block.height}`;
    latest.textContent = `latest #${d.block.height}`;
    latest.hidden = false;
  }
}

$<HTMLFormElement>('search').addEventListener('submit', (e) => {
  e.preventDefault();
  const target = classify(input.value);
  if (target.kind === 'invalid') {
    searchError.textContent = target.message;
    input.setAttribute('aria-invalid', 'true');
    return;
  }
  searchError.textContent = '';
  input.removeAttribute('aria-invalid');
  const hash = hashOf(target);
  if (location.hash === hash) void route();
  else location.hash = hash;
});
input.addEventListener('input', () => {
  searchError.textContent = '';
  input.removeAttribute('aria-invalid');
});

window.addEventListener('hashchange', () => void route());

async function start(): Promise<void> {
  await refreshStats();
  // The live blocks start right after the listed ones (an empty chain: from block 1).
  let from: number | undefined;
  try {
    const newest = await api.blocks(LIST_SIZE);
    for (const b of newest.slice().reverse()) addToList(b, false);
    from = Math.max(0, ...newest.map((b) => b.height)) + 1;
  } catch (err) {
    showError(err, 'cannot list blocks');
  }
  await route();
  watchBlocks(from, onBlock, onLive);
  document.body.dataset.ready = 'true';
}

void start();
