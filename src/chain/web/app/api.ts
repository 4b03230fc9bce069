/**
 * The explorer page's access to this node's explorer REST and WS /ws/blocks (same
 * origin). JSON is parsed keeping u64 values above 2^53 exact (as bigint), and errors
 * carry the server's `{"error": ...}` message.
 */
import type { BlockDetail, BlockRecord, ChainStatus, ExplorerEvent, ExplorerTransaction } from '../../interface.js';

export type { BlockDetail, BlockRecord, ChainStatus, ExplorerEvent, ExplorerTransaction };

export interface OpenOrder {
  market_id: string;
  market_name: string;
  order_id: bigint | number;
  side: 'Buy' | 'Sell';
  price: bigint | number;
  quantity: bigint | number;
  remaining: bigint | number;
  expiry: bigint | number;
  continuum_sequence: bigint | number;
  tick_number: number;
  transaction_id: string | null;
}

export interface OwnerOrders {
  owner: string;
  total: number;
  offset: number;
  orders: OpenOrder[];
}

/** /blocks/:height/ticks: the sequencer ticks behind a block's batches, as /api/v1/tick/N. */
export interface BlockTicks {
  block_height: number;
  total: number;
  offset: number;
  ticks: { tick_number: number; tick: { tick_number: number; transaction_batch_hash: string } }[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON.parse that turns integers beyond 2^53 into exact bigints (source text access). */
export function parseJson<T>(text: string): T {
  return JSON.parse(text, function (this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  } as (key: string, value: unknown) => unknown) as T;
}

export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const text = await res.text();
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    try {
      message = parseJson<{ error?: string }>(text).error ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(res.status, message);
  }
  return parseJson<T>(text);
}

export const api = {
  status: () => getJson<ChainStatus>('/status'),
  blocks: (limit = 20, offset = 0) => getJson<BlockRecord[]>(`/blocks?limit=${limit}&offset=${offset}`),
  block: (height: number) => getJson<BlockDetail>(`/blocks/${height}`),
  latest: () => getJson<BlockDetail>('/blocks/latest'),
  ticks: (height: number, offset: number) => getJson<BlockTicks>(`/blocks/${height}/ticks?limit=500&offset=${offset}`),
  transaction: (id: string) => getJson<ExplorerTransaction>(`/transactions/${encodeURIComponent(id)}`),
  ownerOrders: (owner: string) => getJson<OwnerOrders>(`/orders/user/${encodeURIComponent(owner)}?limit=1000`),
  marketEvents: (marketId: string) => getJson<ExplorerEvent[]>(`/events?limit=200&market_id=${encodeURIComponent(marketId)}`),
};

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * Follow WS /ws/blocks: the latest block detail on connect, then each new one. Reconnects
 * with backoff (0.5 s doubling to 5 s) and reports its state. Returns a stop function.
 */
export function watchBlocks(onBlock: (detail: BlockDetail) => void, onState: (state: LiveState) => void): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let delay = 500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    onState('connecting');
    const url = new URL('/ws/blocks', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      delay = 500;
      onState('live');
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      try {
        onBlock(parseJson<BlockDetail>(event.data));
      } catch {
        // a message we cannot read: skip it, the next block comes anyway
      }
    };
    ws.onclose = () => {
      if (stopped) return;
      onState('offline');
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 5_000);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
