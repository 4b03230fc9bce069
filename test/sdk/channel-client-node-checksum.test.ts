/**
 * The book checksum end to end: the real `svc node` binary, the SDK's ChannelClient over a
 * real WebSocket (the `ws` package), and one delta corrupted between them by a hook in the
 * client's transport (a level's quantity raised by one, a change that keeps the message
 * well-formed and in sequence, so only the checksum can tell). The client reports the
 * mismatch, never hands that book to its handler, subscribes again for a snapshot and ends
 * with the node's book (GET /markets/:id/orderbook) and its checksum. Before any order the
 * market's snapshot carries the empty book's checksum.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ChainClient } from '../../src/chain/api/client/index.js';
import { bookChecksumOf, ChannelClient, EMPTY_BOOK_CHECKSUM, marketIdOf } from '../../src/sdk/index.js';
import type { BookLevels, BookMessage, ChannelDial, ChannelError } from '../../src/sdk/index.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { keyOf, mintOf } from '../chain/support/flow.js';
import { orderFlow } from '../channels/support/order-flow.js';
import { freePort, waitUntil } from '../channels/support/wait.js';

const FACES = ['grpc', 'dex', 'rpc'];
const BASE = 91;
const QUOTE = 92;
const MARKET = marketIdOf(mintOf(BASE), mintOf(QUOTE));

/**
 * The SDK's dial over `ws`, with a hook on each text the node sent: `corrupt` may return
 * another text, which the client gets instead.
 */
function hookedDial(corrupt: (text: string) => string): ChannelDial {
  return (url, events) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('open', () => events.open());
    ws.on('message', (data: Buffer) => events.message(corrupt(data.toString())));
    ws.on('close', (code: number, reason: Buffer) => events.close(code, reason.toString()));
    ws.on('error', () => undefined);
    return { send: (text) => ws.send(text), close: () => ws.terminate() };
  };
}

/** The text with the quantity of its first level that is not gone raised by one (undefined: every level is gone). */
function raiseOneQuantity(text: string): string | undefined {
  const row = /\[(\d+),(\d+),([1-9]\d*)\]/.exec(text.slice(text.indexOf('"bids":')));
  if (row === null) return undefined;
  const at = text.indexOf('"bids":') + row.index;
  return `${text.slice(0, at)}[${row[1]},${BigInt(row[2]!) + 1n},${row[3]}]${text.slice(at + row[0].length)}`;
}

describe('book checksum: a corrupted delta between the real node and the SDK client', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess | undefined;
  let client: ChannelClient | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-channels-checksum-'));
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('reports the mismatch, re-snapshots, ends with the node’s book; an empty book’s checksum is 0', async () => {
    const port = await freePort();
    node = await spawnNode(dir, ['--idle-tick-ms', '20', '--block-ms', '50', '--rpc-addr', `127.0.0.1:${port}`], FACES);
    const grpc = new ChainClient(node.addresses.grpc!);
    await grpc.submit({ market: { base_mint: mintOf(BASE), quote_mint: mintOf(QUOTE), name: 'SUM/CHECK' } });

    let deltas = 0;
    let corrupted: { seq: number; original: string } | undefined;
    const dial = hookedDial((text) => {
      if (corrupted !== undefined || !text.startsWith('{"type":"delta"') || ++deltas < 5) return text;
      const bad = raiseOneQuantity(text);
      if (bad === undefined) return text;
      corrupted = { seq: Number(/"seq":(\d+)/.exec(text)![1]), original: text };
      return bad;
    });
    const errors: ChannelError[] = [];
    client = new ChannelClient({ url: `ws://127.0.0.1:${port}/ws`, dial, onError: (e) => errors.push(e) });
    const seen: Array<{ levels: BookLevels; m: BookMessage }> = [];
    client.book(MARKET, (levels, m) => seen.push({ levels, m }));
    await waitUntil(() => seen.length >= 1, 'the first snapshot');
    expect(seen[0]!.m).to.include({ type: 'snapshot', checksum: EMPTY_BOOK_CHECKSUM });
    expect(seen[0]!.levels).to.deep.include({ bids: [], asks: [], checksum: EMPTY_BOOK_CHECKSUM });

    const alice = keyOf(93);
    const bob = keyOf(94);
    const spec = { owners: [alice, bob] as [typeof alice, typeof bob], mints: [BASE, QUOTE] as [number, number] };
    const orders = orderFlow(grpc, 0, { ...spec, prices: { from: 50, spread: 9 }, maxQuantity: 5 });
    const snapshots = () => seen.filter((s) => s.m.type === 'snapshot').length;
    await waitUntil(() => corrupted !== undefined && snapshots() >= 2, 'a corrupted delta and a new snapshot');
    const deltasAfter = () => seen.filter((s) => s.m.type === 'delta' && s.m.seq > corrupted!.seq).length;
    await waitUntil(() => deltasAfter() >= 5, 'deltas after the new snapshot');
    await orders.stop();
    grpc.close();
    await new Promise((r) => setTimeout(r, 500)); // the last ticks' deltas

    expect(errors.filter((e) => e.code === 'checksum_mismatch')).to.have.length(1);
    expect(errors[0]).to.include({ code: 'checksum_mismatch', marketId: MARKET, seq: corrupted!.seq });
    expect(client.checksumMismatches).to.equal(1);
    const handedOn = seen.some((s) => s.m.seq === corrupted!.seq && s.m.type === 'delta');
    expect(handedOn, 'the corrupted delta is not handed on').to.equal(false);
    for (const s of seen) expect(s.levels.checksum).to.equal(bookChecksumOf(MARKET, s.levels.bids, s.levels.asks));

    const res = await fetch(`http://${node.addresses.dex}/markets/${MARKET}/orderbook?depth=1000`);
    type RestLevel = { price: string; quantity: string; orders: number };
    const { data } = (await res.json()) as { data: { bids: RestLevel[]; asks: RestLevel[] } };
    const last = seen[seen.length - 1]!.levels;
    const rows = (levels: BookLevels['bids']): RestLevel[] =>
      levels.map(([p, q, o]) => ({ price: String(p), quantity: String(q), orders: o }));
    expect(rows(last.bids)).to.deep.equal(data.bids);
    expect(rows(last.asks)).to.deep.equal(data.asks);
    const restRows = (levels: RestLevel[]) => levels.map((l) => [l.price, l.quantity, l.orders] as const);
    expect(last.checksum).to.equal(bookChecksumOf(MARKET, restRows(data.bids), restRows(data.asks)));
  });
});
