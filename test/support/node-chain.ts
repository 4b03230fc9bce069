/**
 * What the message-queue tests read from a running node over HTTP: its chain over the
 * explorer REST (what the stream must hold), one /metrics value, and a wait until the
 * stream ends with the node's latest block.
 */
import { expect } from 'chai';
import { expectedIds, isBlock, isTx, readStream, type ExpectedBlock, type StreamMessage } from './jetstream.js';
import { until } from './until.js';

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface BlockDetailJson {
  block: { height: number; transaction_ids: string[] };
  transactions: { id: string; market_id: string }[];
}

/** The node's chain, blocks 1..height (at most `upToHeight`), read over its explorer REST. */
export async function nodeChain(rpc: string, upToHeight?: number): Promise<ExpectedBlock[]> {
  const { block_height } = await getJson<{ block_height: number }>(`${rpc}/status`);
  const last = upToHeight === undefined ? block_height : Math.min(upToHeight, block_height);
  const blocks: ExpectedBlock[] = [];
  for (let h = 1; h <= last; h++) {
    const d = await getJson<BlockDetailJson>(`${rpc}/blocks/${h}`);
    expect(d.transactions.map((t) => t.id)).to.deep.equal(d.block.transaction_ids);
    blocks.push({ height: h, txIds: d.block.transaction_ids, marketIds: d.transactions.map((t) => t.market_id) });
  }
  return blocks;
}

/** One unlabelled sample of the node's /metrics (REST port), or undefined when absent. */
export async function metric(rest: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${rest}/metrics`)).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Wait until the stream (at `natsUrl`, comma-separated for a cluster) ends with the node's
 * latest block and holds at least `minTx` transactions: once the flow of orders is over.
 * On a timeout it says which of the node's messages the stream lacks, and where.
 */
export async function streamHoldsChain(
  rpc: string,
  natsUrl: string,
  minTx: number,
  ms = 60_000,
): Promise<StreamMessage[]> {
  let seen = 'nothing read';
  return until(
    'the stream to hold the whole chain',
    async () => {
      try {
        const { block_height, total_transactions } = await getJson<{
          block_height: number;
          total_transactions: number;
        }>(`${rpc}/status`);
        const messages = await readStream(natsUrl);
        const last = messages.at(-1);
        const txs = messages.filter(isTx).length;
        seen = `${messages.length} messages, seq ${messages[0]?.seq}..${last?.seq}, ${txs} tx (want ${minTx}), last ${last?.subject} ${last?.msgId}, node at block ${block_height} with ${total_transactions} tx in its blocks`;
        const done = txs >= minTx && last !== undefined && isBlock(last) && last.msgId === String(block_height);
        return done ? messages : undefined;
      } catch (err) {
        seen = (err as Error).message;
        return undefined; // not there yet
      }
    },
    ms,
    200,
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}; last seen: ${seen}; ${await missingFromStream(rpc, natsUrl)}`);
  });
}

/** The node's transaction and block ids that the stream lacks, each with the stream sequence it should follow. */
async function missingFromStream(rpc: string, natsUrl: string): Promise<string> {
  try {
    const messages = await readStream(natsUrl);
    const seqOf = new Map(messages.map((m) => [m.msgId, m.seq]));
    const want = expectedIds(await nodeChain(rpc));
    const after = (k: number) => seqOf.get(want[k - 1] ?? '') ?? '?';
    const missing = want.flatMap((id, k) => (seqOf.has(id) ? [] : [`${id} (after seq ${after(k)})`]));
    if (missing.length === 0) return "the stream lacks none of the messages of the node's blocks";
    const list = missing.slice(0, 20).join(', ');
    return `the stream lacks ${missing.length} of the node's ${want.length} messages: ${list}`;
  } catch (err) {
    return `(could not compare the stream with the node's blocks: ${(err as Error).message})`;
  }
}
