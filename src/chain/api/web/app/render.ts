/**
 * DOM building for the explorer page. Every value from the node goes in as text
 * (createTextNode / setAttribute), never as HTML, so no stored string can inject markup.
 */
import type { BlockDetail, BlockRecord, ChainStatus, ExplorerEvent, ExplorerTransaction, OwnerOrders } from './api.js';

type Child = Node | string | number | bigint | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, v);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Rows rendered per table at most; the rest is counted, not drawn. */
export const MAX_ROWS = 1000;

export function hexOf(bytes: readonly number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function short(hex: string, keep = 8): string {
  return hex.length > keep * 2 + 1 ? `${hex.slice(0, keep)}…${hex.slice(-keep)}` : hex;
}

export function utcTime(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const link = (hash: string, text: Child, title?: string) => el('a', { href: hash, title }, text);
export const blockLink = (h: number) => link(`#/block/${h}`, `#${h}`);
export const txLink = (id: string) => link(`#/tx/${id}`, id, id);
export const ownerLink = (owner: string | undefined) =>
  owner ? link(`#/owner/${owner}`, short(owner, 6), owner) : '—';
export const marketLink = (id: string, name: string) => link(`#/market/${id}`, name || short(id, 4), id);
const mono = (text: string, full = text) => el('code', { title: full }, text);
const opt = (v: Child) => (v === undefined || v === null ? '—' : v);

function table(head: string[], rows: Child[][], total: number, className = ''): HTMLElement {
  const body = rows.slice(0, MAX_ROWS).map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c))));
  return el(
    'div',
    { class: 'table-wrap' },
    el(
      'table',
      { class: className },
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))),
      el('tbody', {}, ...body),
    ),
    total > MAX_ROWS ? el('p', { class: 'note' }, `showing the first ${MAX_ROWS} of ${total}`) : null,
    total === 0 ? el('p', { class: 'note' }, 'none') : null,
  );
}

function fields(pairs: [string, Child][]): HTMLElement {
  return el('dl', { class: 'fields' }, ...pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

export function statsCards(s: ChainStatus): HTMLElement[] {
  const card = (label: string, value: Child, key: string, title?: string) =>
    el(
      'div',
      { class: 'card', 'data-stat': key, title },
      el('span', { class: 'label' }, label),
      el('span', { class: 'value' }, value),
    );
  const root = hexOf(s.state_root);
  return [
    card('Block height', s.block_height, 'height'),
    card('Batches applied', s.applied_batches, 'batches'),
    card('Transactions', s.total_transactions ?? '—', 'transactions'),
    card('Latest tick', s.latest_tick ?? '—', 'tick'),
    card('State root', short(root, 10), 'root', root),
  ];
}

export function blockRow(b: BlockRecord): HTMLTableRowElement {
  const txs = b.transaction_ids.length;
  return el(
    'tr',
    { 'data-height': String(b.height), tabindex: '0' },
    el('td', {}, blockLink(b.height)),
    el('td', { class: 'time' }, utcTime(b.produced_at).slice(11, 19)),
    el('td', { class: 'num', title: `${b.total_orders} orders, ${b.total_cancels} cancels` }, txs),
    el('td', { class: 'num' }, b.batch_summaries.length),
  );
}

export function blockView(d: BlockDetail): HTMLElement {
  const b = d.block;
  const root = hexOf(b.state_root);
  const nav = el(
    'nav',
    { class: 'pager' },
    b.height > 1 ? link(`#/block/${b.height - 1}`, '← older') : el('span', {}, ''),
    link(`#/block/${b.height + 1}`, 'newer →'),
    el('a', { id: 'latest-link', class: 'latest-link', hidden: '' }, ''),
  );
  return el(
    'article',
    {},
    el('div', { class: 'title-row' }, el('h2', {}, `Block ${b.height}`), nav),
    fields([
      ['Produced', `${utcTime(b.produced_at)} (unix ${b.produced_at})`],
      ['State root', mono(root)],
      ['Transactions', `${b.total_orders} orders, ${b.total_cancels} cancels, ${b.total_markets ?? 0} markets`],
      ['Orders matched', `${b.applied_orders} (${b.trade_count ?? 0} trades)`],
      ['Batches', `${b.batch_summaries.length} in this block, ${b.applied_batches} applied in all`],
      ['Ticks', b.first_tick !== undefined ? `${b.first_tick} … ${b.last_tick}` : '—'],
    ]),
    el(
      'div',
      { class: 'verify' },
      el('button', { id: 'verify', type: 'button' }, 'Verify ticks in this browser'),
      el(
        'span',
        { id: 'verdict', class: 'verdict' },
        'checks every VDF proof and batch hash behind this block with the WASM verifier',
      ),
    ),
    el('h3', {}, `Batches (${b.batch_summaries.length})`),
    table(
      ['#', 'Tick', 'Orders', 'Cancels', 'Batch hash'],
      b.batch_summaries.map((s) => [
        s.index,
        s.tick_number,
        s.order_count,
        s.cancel_count,
        mono(short(s.batch_hash, 12), s.batch_hash),
      ]),
      b.batch_summaries.length,
      'batches',
    ),
    el('h3', {}, `Transactions (${d.transactions.length})`),
    table(
      ['Id', 'Kind', 'Market', 'Side', 'Price', 'Quantity', 'Owner', 'Sequence'],
      d.transactions.map((t) => [
        txLink(t.id),
        el('span', { class: `kind ${t.kind}` }, t.kind),
        marketLink(t.market_id, t.market_name),
        opt(t.side),
        opt(t.price),
        opt(t.quantity),
        ownerLink(t.owner),
        t.continuum_sequence,
      ]),
      d.transactions.length,
      'transactions',
    ),
    el('h3', {}, `Markets created (${(d.markets ?? []).length})`),
    table(
      ['Id', 'Market', 'Kind', 'Base mint', 'Quote mint', 'Sequence'],
      (d.markets ?? []).map((m) => [
        mono(m.id),
        marketLink(m.market_id, m.market_name),
        m.market_kind,
        mono(short(m.base_mint, 8), m.base_mint),
        mono(short(m.quote_mint, 8), m.quote_mint),
        m.continuum_sequence,
      ]),
      (d.markets ?? []).length,
      'markets',
    ),
    el('h3', {}, `Events (${d.events.length})`),
    table(
      ['Id', 'Market', 'Orders matched', 'Trades', 'Batch hash'],
      d.events.map(eventRow),
      d.events.length,
      'events',
    ),
  );
}

function eventRow(e: ExplorerEvent): Child[] {
  return [
    mono(e.id),
    marketLink(e.market_id, e.market_name),
    e.applied_orders,
    opt(e.trade_count),
    mono(short(e.batch_hash, 12), e.batch_hash),
  ];
}

export function txView(t: ExplorerTransaction): HTMLElement {
  const pairs: [string, Child][] = [
    ['Block', el('span', {}, blockLink(t.block_height), ` batch ${t.batch_index}`)],
    ['Kind', t.kind],
    ['Market', el('span', {}, marketLink(t.market_id, t.market_name), ` (${t.market_kind})`)],
  ];
  if (t.owner) pairs.push(['Owner', el('a', { href: `#/owner/${t.owner}` }, mono(t.owner))]);
  if (t.kind === 'cancel_all')
    pairs.push(['Side', t.side ?? 'both'], ['Cancelled orders', (t.cancelled_order_ids ?? []).join(', ') || 'none']);
  else if (t.side) pairs.push(['Side', t.side], ['Price', opt(t.price)], ['Quantity', opt(t.quantity)]);
  if (t.status) pairs.push(['On arrival', `${t.status}, filled ${opt(t.filled_quantity)}`]);
  if (t.cancelled_quantity !== undefined) pairs.push(['Cancelled quantity', t.cancelled_quantity]);
  if (t.order_id !== undefined) pairs.push([t.kind === 'cancel_all' ? 'Request id' : 'Order id', t.order_id]);
  if (t.base_mint) pairs.push(['Base mint', mono(t.base_mint)], ['Quote mint', mono(t.quote_mint ?? '')]);
  pairs.push(
    ['Continuum sequence', `${t.continuum_sequence} (tick ${t.tick_number})`],
    ['Sequence number', opt(t.sequence_number)],
    [
      'Submitted',
      t.timestamp_ms ? `${new Date(Number(t.timestamp_ms)).toISOString().replace('T', ' ').replace('Z', ' UTC')}` : '—',
    ],
    ['Transaction hash', t.tx_hash ? mono(t.tx_hash) : '—'],
  );
  if (t.signature) pairs.push(['Signature', mono(short(t.signature, 16), t.signature)]);
  return el(
    'article',
    {},
    el('h2', {}, 'Transaction ', el('code', {}, t.id)),
    fields(pairs),
    el(
      'div',
      { class: 'verify' },
      el('button', { id: 'verify-tx', type: 'button' }, 'Verify this transaction in this browser'),
      el(
        'span',
        { id: 'tx-verdict', class: 'verdict' },
        "checks its inclusion proof: the batch hash, the tick's VDF proof and the ids of its block",
      ),
    ),
    t.kind === 'order' && t.owner
      ? el(
          'div',
          { class: 'verify' },
          el(
            'button',
            {
              id: 'verify-order',
              type: 'button',
              'data-market': t.market_id,
              'data-order': String(t.order_id),
              'data-owner': t.owner,
            },
            'Verify this order in this browser',
          ),
          el(
            'span',
            { id: 'order-verdict', class: 'verdict' },
            "checks the order's state proof against the latest block's state root",
          ),
        )
      : null,
  );
}

export function ownerView(o: OwnerOrders): HTMLElement {
  return el(
    'article',
    {},
    el('h2', {}, 'Open orders'),
    fields([
      ['Owner', mono(o.owner)],
      ['Open orders', o.total],
    ]),
    table(
      ['Market', 'Order id', 'Side', 'Price', 'Remaining', 'Quantity', 'Tick', 'Transaction', 'Proof'],
      o.orders.map((x) => [
        marketLink(x.market_id, x.market_name),
        x.order_id,
        x.side,
        x.price,
        x.remaining,
        x.quantity,
        x.tick_number,
        x.transaction_id ? txLink(x.transaction_id) : '—',
        el(
          'span',
          {},
          el(
            'button',
            {
              class: 'verify-order',
              type: 'button',
              'data-market': x.market_id,
              'data-order': String(x.order_id),
              'data-owner': o.owner,
            },
            'Verify this order',
          ),
          ' ',
          el('span', { class: 'verdict order-verdict' }, ''),
        ),
      ]),
      o.orders.length,
      'orders',
    ),
  );
}

export function marketView(marketId: string, events: ExplorerEvent[]): HTMLElement {
  const name = events[0]?.market_name ?? '';
  return el(
    'article',
    {},
    el('h2', {}, `Market ${name}`),
    fields([
      ['Market id', mono(marketId)],
      ['Recent events', events.length],
    ]),
    table(
      ['Block', 'Event', 'Orders matched', 'Trades', 'Batch hash'],
      events.map((e) => [
        blockLink(e.block_height),
        mono(e.id),
        e.applied_orders,
        opt(e.trade_count),
        mono(short(e.batch_hash, 12), e.batch_hash),
      ]),
      events.length,
      'events',
    ),
  );
}

export function messageView(title: string, message: string, kind: 'error' | 'info' = 'error'): HTMLElement {
  return el('article', { class: `message ${kind}` }, el('h2', {}, title), el('p', {}, message));
}
