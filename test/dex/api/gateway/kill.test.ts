/**
 * Gateway processes in the real `svc node` binary (--gateways 2):
 *  - a gateway killed with -9 while orders flow loses no accepted order (every order
 *    answered 200 is in the engine afterwards: sent again it is ORDER_REPLAYED, and its
 *    receipt verifies), the other gateway keeps serving, and a new gateway is forked;
 *  - a burst beyond what the gateways let wait gets 503 QUEUE_FULL with Retry-After at
 *    once, and every order answered 200 in it is real;
 *  - the same kill while gRPC SubmitTx flows on the order entry (--grpc-entry-addr): every
 *    order answered OK is in the engine, and the entry keeps serving.
 * One node per describe; the gateways are the node process's children.
 */
import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildOrderBody,
  DexClient,
  fromBase58Key,
  keyPairFromSeed,
  toBase58,
  verifyReceipt,
  type OrderIntent,
  type Receipt,
} from '../../../../src/sdk/index.js';
import { ChainClient, signedOrderRequest } from '../../../../src/chain/api/client/index.js';
import { spawnNode, type NodeProcess } from '../../../support/node-process.js';

const BASE = new Uint8Array(32).fill(21);
const QUOTE = new Uint8Array(32).fill(22);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { ok: boolean; code?: string; data?: { receipt: Receipt } };
}

function post(address: string, agent: Agent, path: string, body: unknown): Promise<Answer> {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(':')),
    Number(address.slice(address.lastIndexOf(':') + 1)),
  ];
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Answer['body'],
          }),
        );
        res.on('error', reject);
      },
    );
    // A bound all the same: a request on the killed gateway's connection is not
    // acknowledged, and the client must not wait for ever if it is never answered.
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', reject);
    req.end(text);
  });
}

/** Child process ids of `pid` (from /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const e of await readdir('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = await readFile(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until(what: string, cond: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function order(seed: number, orderId: bigint): { intent: OrderIntent; body: unknown } {
  const key = keyPairFromSeed(new Uint8Array(32).fill(seed));
  const intent: OrderIntent = {
    orderId,
    owner: key.publicKey,
    side: orderId % 2n === 0n ? 'Buy' : 'Sell',
    price: 100n + (orderId % 3n),
    quantity: 1n + (orderId % 4n),
    expiry: 0n,
    baseMint: BASE,
    quoteMint: QUOTE,
  };
  return { intent, body: buildOrderBody(intent, key.secretKey) };
}

describe('gateway processes (real node, --gateways 2)', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess;
  let dexAddr: string;
  let sequencerKey: Uint8Array;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-gw-e2e-'));
    // --queue-capacity 16: each of the 2 gateways lets 8 orders wait for the sequencer.
    node = await spawnNode(
      dir,
      ['--idle-tick-ms', '20', '--gateways', '2', '--queue-capacity', '16', '--grpc-entry-addr', '127.0.0.1:0'],
      ['grpc', 'rest', 'dex', 'grpc-entry'],
    );
    dexAddr = node.addresses.dex!;
    const dex = new DexClient(`http://${dexAddr}`);
    sequencerKey = fromBase58Key((await dex.health()).public_key);
    await dex.createMarket({ base_mint: toBase58(BASE), quote_mint: toBase58(QUOTE), name: 'GW/TEST' });
  });
  after(async () => {
    node.child.kill('SIGKILL');
    await node.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('kill -9 of one gateway mid-flow: no accepted order lost, the other keeps serving, a new one is forked', async () => {
    await until('2 gateways', async () => (await childrenOf(node.child.pid!)).length === 2);
    const [victim, survivor] = await childrenOf(node.child.pid!);
    const accepted: Array<{ seed: number; orderId: bigint; receipt: Receipt }> = [];
    let failures = 0;
    let acceptedAfterKill = 0;
    let killed = false;
    let unanswered = 0;
    // 6 clients, each with keep-alive connections spread over both gateways.
    const clients = Array.from({ length: 6 }, async (_, c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 2 });
      for (let n = 1n; n <= 40n; n++) {
        const { body } = order(30 + c, n);
        try {
          const a = await post(dexAddr, agent, '/orders', body);
          if (a.status === 200 && a.body.data) {
            accepted.push({ seed: 30 + c, orderId: n, receipt: a.body.data.receipt });
            if (killed) acceptedAfterKill++;
          } else failures++;
        } catch (err) {
          failures++; // its connection was on the killed gateway: not acknowledged
          if ((err as Error).message.startsWith('no answer')) unanswered++;
        }
      }
      agent.destroy();
    });
    await until('some orders accepted', async () => accepted.length >= 30);
    process.kill(victim!, 'SIGKILL');
    killed = true;
    await Promise.all(clients);
    expect(acceptedAfterKill, 'orders accepted after the kill').to.be.greaterThan(0);
    expect(accepted.length + failures).to.equal(240);
    // The gateways accept from one shared socket: no connection is caught being handed to
    // the dying gateway; those it held are closed by the kernel, so the client hears at once.
    expect(unanswered, 'requests left without an answer or a closed connection').to.equal(0);

    // Every acknowledged order is in the engine: the same signed order again is a replay.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    for (const a of accepted) {
      expect(verifyReceipt(a.receipt, sequencerKey), `receipt of ${a.seed}/${a.orderId}`).to.equal(true);
      const again = await post(dexAddr, agent, '/orders', order(a.seed, a.orderId).body);
      expect(again.status, `order ${a.seed}/${a.orderId} again`).to.equal(409);
      expect(again.body.code).to.equal('ORDER_REPLAYED');
    }
    agent.destroy();

    // The survivor still runs and a replacement joined it.
    await until('a replacement gateway', async () => {
      const now = await childrenOf(node.child.pid!);
      return now.length === 2 && now.includes(survivor!) && !now.includes(victim!);
    });
    const fresh = await post(dexAddr, new Agent(), '/orders', order(40, 1n).body);
    expect(fresh.status).to.equal(200);
  });

  it("a burst beyond the gateways' bound: 503 QUEUE_FULL with Retry-After at once; the orders answered 200 are real", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 400 });
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        post(dexAddr, agent, '/orders', order(50 + (i % 4), BigInt(1000 + i)).body),
      ),
    );
    agent.destroy();
    const full = answers.filter((a) => a.status === 503);
    const ok = answers.filter((a) => a.status === 200);
    expect(full.length, 'refused with 503').to.be.greaterThan(0);
    expect(ok.length + full.length).to.equal(400);
    for (const a of full) {
      expect(a.body.code).to.equal('QUEUE_FULL');
      expect(a.headers['retry-after']).to.equal('1');
    }
    for (const a of ok) expect(verifyReceipt(a.body.data!.receipt, sequencerKey)).to.equal(true);
  });

  it('kill -9 of one gateway while gRPC SubmitTx flows on the order entry: no accepted order lost, the entry keeps serving', async () => {
    await until('2 gateways', async () => (await childrenOf(node.child.pid!)).length === 2);
    const [victim] = await childrenOf(node.child.pid!);
    const entry = node.addresses['grpc-entry']!;
    const accepted: Array<{ seed: number; orderId: bigint }> = [];
    let failures = 0;
    // 6 clients, each its own connection (a gRPC channel), 30 orders each, one at a time.
    const clients = Array.from({ length: 6 }, async (_, c) => {
      const client = new ChainClient(entry);
      for (let n = 1n; n <= 30n; n++) {
        const seed = 60 + c;
        const key = keyPairFromSeed(new Uint8Array(32).fill(seed));
        try {
          const r = await client.submit(signedOrderRequest(order(seed, n).intent, key.secretKey), 10_000);
          expect(r.transaction?.kind).to.equal('order');
          accepted.push({ seed, orderId: n });
        } catch {
          failures++; // on the killed gateway's connection, or refused: not acknowledged
        }
      }
      client.close();
    });
    await until('some orders accepted', async () => accepted.length >= 30);
    process.kill(victim!, 'SIGKILL');
    await Promise.all(clients);
    expect(accepted.length + failures).to.equal(180);
    // The entry keeps serving: a new client's order is taken (a connection the kernel gives
    // the dead gateway's socket queue meanwhile fails fast and is tried again).
    const fresh = new ChainClient(entry);
    const key70 = keyPairFromSeed(new Uint8Array(32).fill(70));
    await until('an order taken on the entry after the kill', () =>
      fresh.submit(signedOrderRequest(order(70, 1n).intent, key70.secretKey), 5_000).then(
        () => true,
        () => false,
      ),
    );
    fresh.close();
    // Every acknowledged order is in the engine: the same signed order again is a replay.
    const again = new ChainClient(node.addresses.grpc!);
    for (const a of accepted) {
      const key = keyPairFromSeed(new Uint8Array(32).fill(a.seed));
      const code = await again.submit(signedOrderRequest(order(a.seed, a.orderId).intent, key.secretKey)).then(
        () => 0,
        (err: { code: number }) => err.code,
      );
      expect(code, `order ${a.seed}/${a.orderId} again`).to.equal(6); // ALREADY_EXISTS
    }
    again.close();
    await until('a replacement gateway', async () => (await childrenOf(node.child.pid!)).length === 2);
  });
});
