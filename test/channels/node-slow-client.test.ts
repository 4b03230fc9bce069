/**
 * A client that never reads, on the real node's channels (startNode with the node's own
 * wiring: NodeChannels.serve on the rpc face), in a child process beside readers in another,
 * while signed orders flow over gRPC SubmitTx: the node closes it with 4000 and the readers
 * get every block, in order, throughout. The rpc face here is the node's with a send queue
 * of 256 KiB instead of 4 MiB (so the test needs a quarter of a minute of orders, not
 * minutes: the kernel alone absorbs about 4 MB of a paused loopback socket first).
 */
import { expect } from 'chai';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { signedOrderRequest } from '../../src/chain/api/client/index.js';
import { startRpcFace } from '../../src/chain/api/index.js';
import type { ChannelHub } from '../../src/channels/index.js';
import type { FaceSpec } from '../../src/node/index.js';
import { grpcFace } from '../../src/node/faces.js';
import { startChainNode, type ChainNode } from '../chain/support/node.js';
import { keyOf, mintOf } from '../chain/support/flow.js';

const child = (name: string): ChildProcess =>
  fork(fileURLToPath(new URL(`./clients/${name}.js`, import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });

function nextMessage<T>(c: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    c.once('message', (m) => resolve(m as T));
    c.once('exit', (code) => reject(new Error(`child exited (${code})`)));
  });
}

const QUEUE_BYTES = 256 * 1024;
const CLOSE_BOUND_MS = 90_000;

describe('channels in the real node: a client that never reads (child processes)', function () {
  this.timeout(180_000);
  let n: ChainNode;
  let hub: ChannelHub | undefined;
  const children: ChildProcess[] = [];
  const rpc: FaceSpec = {
    name: 'rpc',
    async start(ctx) {
      const channels = ctx.channels.serve(ctx.chain.chain, ctx.logger, { queueBytes: QUEUE_BYTES });
      hub = channels.hub;
      const face = await startRpcFace({
        chain: ctx.chain.chain,
        state: () => ctx.book.state,
        sequencer: ctx.sequencer,
        addr: ctx.config.rpcAddr,
        logger: ctx.logger,
        upgrades: [channels],
      });
      return {
        name: 'rpc',
        address: face.address,
        stopAccepting: () => face.stopAccepting(),
        close: () => face.close(),
      };
    },
  };

  before(async () => {
    n = await startChainNode({ faces: [grpcFace, rpc] });
    await n.client.submit({ market: { base_mint: mintOf(1), quote_mint: mintOf(2), name: 'SLOW/READER' } });
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await n?.close();
  });

  it('is closed with 4000 while the readers get every block in order', async () => {
    const port = Number(new URL(n.rpc).port);
    const stuck = child('never-reads');
    const readers = child('block-reader');
    children.push(stuck, readers);
    stuck.send({ host: '127.0.0.1', port, path: '/ws' });
    readers.send({ url: `ws://127.0.0.1:${port}/ws`, clients: 3 });
    await Promise.all([nextMessage(stuck), nextMessage(readers)]);
    while (hub!.subscribers('blocks', '') < 4) await new Promise((resolve) => setTimeout(resolve, 20));

    const alice = keyOf(91);
    const bob = keyOf(92);
    let id = 0;
    const started = performance.now();
    let closedAfter = -1;
    // Orders in rounds of 64 until the stuck client is closed, then 2 s more.
    while (closedAfter < 0 || performance.now() - started < closedAfter + 2_000) {
      await Promise.all(
        Array.from({ length: 64 }, (_, i) => {
          const key = i % 2 ? alice : bob;
          return n.client.submit(
            signedOrderRequest(
              {
                orderId: BigInt(++id),
                owner: key.publicKey,
                side: i % 2 ? 'Sell' : 'Buy',
                price: BigInt(90 + (id % 21)),
                quantity: 1n,
                expiry: 0n,
                baseMint: mintOf(1),
                quoteMint: mintOf(2),
              },
              key.secretKey,
            ),
          );
        }),
      );
      if (closedAfter < 0 && hub!.slowClosed > 0) closedAfter = performance.now() - started;
      if (performance.now() - started > CLOSE_BOUND_MS) break;
    }
    expect(closedAfter, `the client that never reads was closed (${id} orders)`).to.be.greaterThan(0);
    expect(hub!.slowClosed).to.equal(1);
    expect(hub!.subscribers('blocks', '')).to.equal(3);

    const done = nextMessage<{ heights: number[][] }>(readers);
    readers.send({ stop: true });
    const { heights } = await done;
    const height = ((await n.get('/status')).json as { block_height: number }).block_height;
    for (const hs of heights) {
      expect(hs.length).to.be.greaterThan(10);
      expect(hs).to.deep.equal(Array.from({ length: hs.length }, (_, i) => hs[0]! + i));
      expect(hs[hs.length - 1]).to.be.at.least(height - 1);
    }
  });
});
