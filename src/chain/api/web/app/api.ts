/**
 * The explorer page's access to this node's explorer REST and, through the SDK's
 * channel client, the blocks channel of WS /ws (same origin). JSON is parsed keeping u64 values above 2^53 exact (as bigint), and errors
 * carry the server's `{"error": ...}` message.
 */
import type { BlockDetail, BlockRecord, ChainStatus, ExplorerEvent, ExplorerTransaction } from '../../../core/index.js';

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

export class ExplorerApiError extends Error {
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
    if (
      typeof value === 'number' &&
      !Number.isSafeInteger(value) &&
      context?.source &&
      /^-?\d+$/.test(context.source)
    ) {
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
    throw new ExplorerApiError(res.status, message);
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
  marketEvents: (marketId: string) =>
    getJson<ExplorerEvent[]>(`/events?limit=200&market_id=${encodeURIComponent(marketId)}`),
};

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * What the page uses of the SDK bundle (svc-sdk.js: its ChannelClient and webSocketDial),
 * loaded at run time. Stated here rather than imported: the explorer is a face of the node
 * and stands below no client; test/chain/api/explorer-live.test.ts holds the SDK to this shape.
 */
export interface SdkModule {
  webSocketDial(): PageDial;
  ChannelClient: new (options: PageChannelOptions) => PageChannelClient;
}

/** The SDK's ChannelDial, as the page passes it on: a target URL and the client's socket events. */
export type PageDial = (url: string, events: PageSocketEvents) => { send(text: string): void; close(): void };
type PageSocketEvents = { open(): void; message(text: string): void; close(code: number, reason: string): void };

export interface PageChannelOptions {
  url: string;
  reconnectMs: number;
  maxReconnectMs: number;
  dial: PageDial;
  onOpen: () => void;
  onError: (e: { code: string }) => void;
}

export interface PageChannelClient {
  blocks(options: { fromHeight?: number }, onBlock: (m: { detail: unknown }) => void): unknown;
  close(): void;
}

let sdkLoading: Promise<SdkModule> | undefined;

/** The SDK bundle (svc-sdk.js, served beside this page), loaded once per page. */
export function loadSdk(): Promise<SdkModule> {
  sdkLoading ??= import(new URL('./svc-sdk.js', import.meta.url).href) as Promise<SdkModule>;
  sdkLoading.catch(() => (sdkLoading = undefined)); // let a later call try again
  return sdkLoading;
}

/**
 * Follow the blocks channel of WS /ws with the SDK's ChannelClient, from `fromHeight` (the
 * height after the page's newest block; undefined: from the next new block). The client
 * reconnects with backoff (0.5 s doubling to 5 s) and resumes from the height after the
 * last block it delivered, so each block comes once, in height order, across reconnects.
 * States: connecting at each dial, live once the node welcomes the socket, offline when it
 * closes. A refused subscription (a node whose chain is shorter than the page's, e.g. one
 * started again on a new database) follows from the next new block instead. Returns a stop
 * function.
 */
export function watchBlocks(
  fromHeight: number | undefined,
  onBlock: (detail: BlockDetail) => void,
  onState: (state: LiveState) => void,
): () => void {
  let stopped = false;
  let client: PageChannelClient | undefined;
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const follow = (sdk: SdkModule, from: number | undefined): void => {
    if (stopped) return;
    const socketDial = sdk.webSocketDial();
    const current = new sdk.ChannelClient({
      url: url.href,
      reconnectMs: 500,
      maxReconnectMs: 5_000,
      dial: (target, events) => {
        onState('connecting');
        return socketDial(target, events);
      },
      onOpen: () => onState('live'),
      onError: (e) => {
        if (e.code === 'closed') return onState('offline');
        if (client !== current) return;
        current.close(); // refused: follow the node's next blocks instead
        follow(sdk, undefined);
      },
    });
    client = current;
    current.blocks(from === undefined ? {} : { fromHeight: from }, (m) => onBlock(m.detail as unknown as BlockDetail));
  };
  const load = (): void => {
    onState('connecting');
    loadSdk().then(
      (sdk) => follow(sdk, fromHeight),
      () => {
        onState('offline');
        if (!stopped) setTimeout(load, 5_000); // the node is away: load the bundle again
      },
    );
  };
  load();
  return () => {
    stopped = true;
    client?.close();
  };
}
