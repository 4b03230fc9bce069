/**
 * `svc chain watch`: follow one live channel of the node's WS /ws (docs/chain.md
 * "Channels") with the SDK's ChannelClient, one line per message (a JSON line with --json,
 * u64 values exact):
 *
 *   --channel blocks  [--from-height N]                 each block, by height
 *   --channel orders  --owner KEY [--from-sequence N]   an owner's order events, by seq
 *   --channel book    --market ID                       a market's snapshot, then its deltas
 *
 * Across a dropped connection the client resumes by itself (blocks from the next height,
 * orders from the next sequence, the book with a new snapshot), so each height and each
 * sequence is printed once, in order; a note goes to stderr, as it does for a book whose
 * checksum does not match (the client subscribes again for a snapshot). Exit 0 after --count messages
 * or Ctrl-C; 1 when the node refuses the subscription (its error code is printed) or
 * cannot be reached at the start; 2 for a wrong command line.
 */
import {
  ChannelClient,
  UUID_RE,
  toBase58Key,
  type BlockMessage,
  type BookLevels,
  type BookMessage,
  type LevelRow,
  type OrderMessage,
} from '../sdk/index.js';
import { encodeJson } from '../wire/index.js';
import type { Subcommand } from './command.js';
import { ownerKey } from './dex-common.js';
import { CommandFailure, optional, UsageError, wholeNumber, type Values } from './options.js';
import { channelsUrl, rpcBase, RPC_URL_OPTION } from './rpc-url.js';
import { wsDial } from './ws-dial.js';

type ChannelName = 'blocks' | 'orders' | 'book';

/** Which of the channel options each channel takes. */
const TAKES: Record<ChannelName, string[]> = {
  blocks: ['from-height'],
  orders: ['owner', 'from-sequence'],
  book: ['market'],
};

const short = (text: string): string => (text.length > 12 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text);

export function blockLine(m: BlockMessage): string {
  const d = m.detail as {
    block?: { transaction_ids?: unknown[]; trade_count?: number };
    events?: unknown[];
    markets?: unknown[];
  };
  const txs = d.block?.transaction_ids?.length ?? 0;
  const extra = [
    `${txs} transaction${txs === 1 ? '' : 's'}`,
    `${d.events?.length ?? 0} events`,
    `${d.block?.trade_count ?? 0} trades`,
  ];
  if (d.markets?.length) extra.push(`${d.markets.length} new market${d.markets.length === 1 ? '' : 's'}`);
  return `block ${m.height}  tick ${m.tick}  ${extra.join(', ')}`;
}

export function orderLine(m: OrderMessage): string {
  const parts = [`order seq ${m.seq}`, `tick ${m.tick}`, m.event, `order ${m.order_id}`];
  if (m.market_id) parts.push(`market ${m.market_id}`);
  if (m.side) parts.push(`${m.side} at ${m.price}`);
  if (m.event === 'accepted') parts.push(`quantity ${m.quantity}`);
  if (m.remaining !== undefined && m.event !== 'accepted') parts.push(`remaining ${m.remaining}`);
  if (m.fills?.length) parts.push(`fills ${m.fills.map((f) => `${f.quantity}@${f.price} (${f.role})`).join(' ')}`);
  if (m.reason) parts.push(`reason ${m.reason}`);
  if (m.event === 'refused') parts.push(`${m.kind ?? ''} ${m.code}: ${m.message}`.trim());
  return parts.join('  ');
}

export function bookLine(levels: BookLevels, m: BookMessage): string {
  const best = (rows: LevelRow[]) => (rows[0] ? `${rows[0][1]} @ ${rows[0][0]}` : 'none');
  return `book ${short(levels.marketId)} seq ${m.seq}  tick ${m.tick}  ${m.type} (${m.bids.length + m.asks.length} level${m.bids.length + m.asks.length === 1 ? '' : 's'})  best bid ${best(levels.bids)}  best ask ${best(levels.asks)}  depth ${levels.bids.length}/${levels.asks.length}`;
}

interface WatchPlan {
  url: string;
  channel: ChannelName;
  fromHeight?: number;
  owner?: string;
  fromSequence?: number;
  market?: string;
  count: number;
  json: boolean;
}

async function planOf(v: Values): Promise<WatchPlan> {
  const channel = optional(v, 'channel') ?? 'blocks';
  if (channel !== 'blocks' && channel !== 'orders' && channel !== 'book')
    throw new UsageError(`--channel must be blocks, orders or book, got '${channel}'`);
  for (const name of Object.values(TAKES).flat()) {
    if (optional(v, name) !== undefined && !TAKES[channel].includes(name))
      throw new UsageError(`--${name} does not go with --channel ${channel}`);
  }
  const plan: WatchPlan = { url: channelsUrl(rpcBase(v)), channel, count: Infinity, json: v.json === true };
  const number = (name: string): number | undefined =>
    optional(v, name) === undefined ? undefined : wholeNumber(optional(v, name)!, `--${name}`, 1);
  plan.count = number('count') ?? Infinity;
  if (channel === 'blocks') plan.fromHeight = number('from-height');
  if (channel === 'orders') {
    const owner = optional(v, 'owner');
    if (owner === undefined) throw new UsageError('--channel orders needs --owner KEY');
    plan.owner = toBase58Key(await ownerKey(owner));
    plan.fromSequence = number('from-sequence');
  }
  if (channel === 'book') {
    const market = optional(v, 'market');
    if (market === undefined) throw new UsageError('--channel book needs --market ID');
    if (!UUID_RE.test(market)) throw new UsageError('--market must be a lowercase UUID');
    plan.market = market;
  }
  return plan;
}

/** Follow the plan's channel until --count messages, Ctrl-C, or a refusal. */
function follow(plan: WatchPlan): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let shown = 0;
    let welcomed = false;
    let lost = false;
    const finish = (outcome: () => void) => {
      process.off('SIGINT', interrupt);
      client.close();
      outcome();
    };
    const interrupt = () => finish(() => resolve(0));
    const client = new ChannelClient({
      url: plan.url,
      dial: wsDial,
      onOpen: () => {
        if (lost) console.error(`svc chain watch: connected again to ${plan.url}; resuming`);
        welcomed = true;
        lost = false;
      },
      onError: (e) => {
        if (e.code === 'checksum_mismatch') return console.error(`svc chain watch: ${e.message}`);
        if (e.code !== 'closed')
          return finish(() => reject(new CommandFailure(`the node refused the subscription: ${e.code}: ${e.message}`)));
        if (!welcomed)
          return finish(() =>
            reject(
              new CommandFailure(
                `cannot reach ${plan.url}: ${e.message || `closed (${e.closeCode})`}: is the node running?`,
              ),
            ),
          );
        if (!lost) console.error(`svc chain watch: connection lost (${e.message}); reconnecting`);
        lost = true;
      },
    });
    const print = (line: string) => {
      if (shown >= plan.count) return;
      console.log(line);
      if (++shown >= plan.count) finish(() => resolve(0));
    };
    process.once('SIGINT', interrupt);
    if (plan.channel === 'blocks')
      client.blocks(plan.fromHeight === undefined ? {} : { fromHeight: plan.fromHeight }, (m) =>
        print(plan.json ? encodeJson(m) : blockLine(m)),
      );
    if (plan.channel === 'orders')
      client.orders(plan.owner!, plan.fromSequence === undefined ? {} : { fromSequence: plan.fromSequence }, (m) =>
        print(plan.json ? encodeJson(m) : orderLine(m)),
      );
    if (plan.channel === 'book')
      client.book(plan.market!, (levels, m) => print(plan.json ? encodeJson(m) : bookLine(levels, m)));
  });
}

export const watch: Subcommand = {
  spec: {
    name: 'chain watch',
    summary:
      "follow a live channel of the node's WS /ws (blocks, an owner's orders, a market's book), resuming across dropped connections",
    usage: '[--channel blocks|orders|book] [options]',
    description:
      "One line per message, or one JSON line with --json (the message as the node sent it, u64 values exact). After a dropped connection it subscribes again from the next height (blocks) or sequence (orders), or for a new snapshot (book), so nothing is printed twice or missed. Exits 1 with the node's error code when it refuses the subscription (e.g. out_of_range, unknown_market).",
    options: [
      { name: 'channel', short: 'c', type: 'string', value: 'NAME', help: 'blocks, orders or book', default: 'blocks' },
      {
        name: 'from-height',
        type: 'string',
        value: 'N',
        help: 'blocks: replay the stored blocks from height N first',
        defaultHelp: 'the next new block',
      },
      {
        name: 'owner',
        type: 'string',
        value: 'KEY',
        help: 'orders: the owner, a Base58 public key or a key NAME or file from svc keygen',
      },
      {
        name: 'from-sequence',
        type: 'string',
        value: 'N',
        help: "orders: replay the owner's stored events from sequence N first",
        defaultHelp: 'the next new event',
      },
      { name: 'market', short: 'm', type: 'string', value: 'ID', help: 'book: the market_id (a lowercase UUID)' },
      { name: 'count', short: 'n', type: 'string', value: 'N', help: 'stop after N messages', defaultHelp: 'never' },
      { name: 'json', type: 'boolean', help: 'one JSON object per line: the message as the node sent it' },
      RPC_URL_OPTION,
    ],
    examples: [
      'svc chain watch --from-height 1 --count 10',
      'svc chain watch --channel orders --owner alice --from-sequence 1 --json',
      'svc chain watch --channel book --market $M',
    ],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    return follow(await planOf(v));
  },
};
