/**
 * The producer's resync when the stream moves while it is being read, against a real
 * `nats-server -js`. After a failure the producer asks the stream for its info, then for its
 * last message; publishes of the failed session (late acks, a leader that applied them
 * after its election) may land between the two answers. The session must number its
 * publishes after the message it resumes from, not after the info's last sequence: numbered
 * from the older figure, its first publishes are refused but a later one of the same window
 * fits the stream's real last sequence and lands after a hole (the mq-cluster test saw the
 * stream one or two transactions short this way after a stream leader died).
 *
 * Made deterministic with a TCP proxy between the producer and the server that holds the
 * producer's last-message request until the test has published, as the failed session
 * would have, the next messages of the chain.
 */
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect } from 'chai';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { startMqPublisher, subjects, type MqPublisher } from '../../../src/chain/mq/index.js';
import { checkStream, readStream, streamLastSeq } from '../../support/jetstream.js';
import { natsServer, type NatsServer } from '../../support/nats-server.js';
import { FakeChain } from './fake-chain.js';

describe('chain/mq: resync while the stream moves (real nats-server)', function () {
  this.timeout(30_000);
  let nats: NatsServer | undefined;
  let proxy: HoldProxy | undefined;
  let producer: MqPublisher | undefined;

  afterEach(async () => {
    await producer?.close();
    producer = undefined;
    await proxy?.close();
    proxy = undefined;
    await nats?.dispose();
    nats = undefined;
  });

  for (const late of [1, 3]) {
    it(`${late} publish(es) of a failed session landing between stream info and last message: no hole`, async () => {
      nats = await natsServer();
      const chain = new FakeChain();
      chain.grow(3, 2, 2); // 12 transactions and 3 blocks: 15 messages
      producer = startMqPublisher({ url: nats.url, source: chain });
      await producer.caughtUp();
      await producer.close();
      const before = await streamLastSeq(nats.url);
      expect(before).to.equal(15);

      chain.grow(2, 3, 2); // blocks 4 and 5: 12 transactions, 14 messages the stream lacks
      const pending = chain.txs.slice(12, 12 + late); // the first of them, all transactions of block 4
      proxy = await holdProxy(nats.port, `STREAM.MSG.GET.${subjects().stream}`, async () => {
        // What the failed session had in flight: same subject, body, id and expectation.
        const nc = await connect({ servers: nats!.url });
        try {
          const js = jetstream(nc);
          for (const [k, tx] of pending.entries()) {
            const expected = { lastSequence: before + k };
            await js.publish(subjects().tx(tx.marketId), tx.body, { msgID: tx.id, expect: expected });
          }
        } finally {
          await nc.close();
        }
      });
      producer = startMqPublisher({ url: `nats://${proxy.address}`, source: chain });
      await producer.caughtUp();
      expect(proxy.held(), 'the last-message request was held once').to.equal(1);
      expect(proxy.failure()).to.equal(undefined);

      const messages = await readStream(nats.url);
      checkStream(messages, chain.expected());
      expect(messages.slice(before, before + late).map((m) => m.msgId)).to.deep.equal(pending.map((t) => t.id));
      // Numbered right from the start: nothing refused, no resync.
      expect(producer.status()).to.deep.include({ resyncs: 0, publishedTx: 12 - late, publishedBlocks: 2 });
    });
  }
});

interface HoldProxy {
  address: string;
  /** How many times the marker was seen (and held). */
  held(): number;
  /** What hold() threw, if it did (the held bytes went on all the same). */
  failure(): Error | undefined;
  close(): Promise<void>;
}

/**
 * A TCP proxy to 127.0.0.1:port that, the first time the client sends `marker`, holds the
 * client's bytes from there on until `hold()` has run, then forwards them in order.
 */
async function holdProxy(port: number, marker: string, hold: () => Promise<void>): Promise<HoldProxy> {
  const open = new Set<Socket>();
  let held = 0;
  let failure: Error | undefined;
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    let tail = ''; // the end of what went before, for a marker split across chunks
    let queue = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      const at = held === 0 ? (tail + text).indexOf(marker) : -1;
      tail = text.slice(-marker.length);
      if (at >= 0) {
        held += 1;
        queue = queue.then(hold).catch((err: Error) => void (failure = err));
      }
      queue = queue.then(() => void upstream.write(chunk));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as { port: number }).port}`,
    held: () => held,
    failure: () => failure,
    async close() {
      for (const s of [...open]) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
