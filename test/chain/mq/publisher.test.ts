/**
 * The JetStream producer against a real `nats-server -js` (Debian's), over an in-memory
 * stored chain: everything lands once, in order, with its Nats-Msg-Id; NATS down at start;
 * NATS killed and restarted mid-run; the producer closed and restarted; a stream holding
 * another chain; a stream that is missing the node's subjects. The end-to-end test through
 * the real node binary and kill -9 is test/chain/mq/node.test.ts.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { pino } from 'pino';
import { startMqPublisher, type MqOptions, type MqPublisher } from '../../../src/chain/mq/index.js';
import { checkStream, readStream } from '../../support/jetstream.js';
import { natsServer, type NatsServer } from '../../support/nats-server.js';
import { FakeChain } from './fake-chain.js';

function captureLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg: string }) },
  );
  return { logger, lines };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('chain/mq: JetStream producer against a real nats-server', function () {
  this.timeout(60_000);
  let nats: NatsServer;
  let producer: MqPublisher | undefined;

  const start = (chain: FakeChain, extra: Partial<MqOptions> = {}) => {
    producer = startMqPublisher({ url: nats.url, source: chain, ackTimeoutMs: 2_000, retryMaxMs: 500, ...extra });
    return producer;
  };

  afterEach(async () => {
    await producer?.close();
    producer = undefined;
    await nats?.dispose();
  });

  it('publishes every transaction and block once, in order, with its dedup id', async () => {
    nats = await natsServer();
    const chain = new FakeChain();
    chain.grow(5, 3, 4);
    const registry = new Registry();
    const p = start(chain, { registry, window: 8 });
    await p.caughtUp();
    chain.grow(20, 2, 7); // more while it runs
    await p.caughtUp();
    const messages = await readStream(nats.url);
    checkStream(messages, chain.expected());
    expect(Buffer.from(messages[0]!.data).equals(Buffer.from(chain.txs[0]!.body))).to.equal(true);
    expect(messages[0]!.msgId).to.equal(chain.txs[0]!.id);
    expect(messages[12]!.msgId).to.equal('1');
    expect(
      Buffer.from(messages[12]!.json<{ block: { state_root: number[] } }>().block.state_root).toString('hex'),
    ).to.equal(chain.blocks[0]!.stateRoot);

    const s = p.status();
    expect(s).to.deep.include({
      state: 'publishing',
      connected: true,
      publishedTx: chain.txs.length,
      publishedBlocks: 25,
      publishedHeight: 25,
      lagBlocks: 0,
      resyncs: 0,
    });
    const metrics = await registry.metrics();
    expect(metrics).to.match(/^svc_mq_connected 1$/m);
    expect(metrics).to.match(/^svc_mq_lag_blocks 0$/m);
    expect(metrics).to.match(new RegExp(`^svc_mq_published_total\\{kind="tx"\\} ${chain.txs.length}$`, 'm'));
    expect(metrics).to.match(/^svc_mq_published_total\{kind="block"\} 25$/m);

    // Stream config the node created.
    const nc = await connect({ servers: nats.url });
    const info = await (await jetstreamManager(nc)).streams.info('SVC');
    await nc.close();
    expect(info.config).to.deep.include({
      subjects: ['svc.tx.*', 'svc.blocks'],
      storage: 'file',
      retention: 'limits',
      discard: 'old',
      duplicate_window: 120_000_000_000,
    });
  });

  it('restarted producer resumes from the stream: no gap, no duplicate', async () => {
    nats = await natsServer();
    const chain = new FakeChain();
    chain.grow(3);
    chain.addTick(2); // open block: its transactions go out before the block exists
    await start(chain).caughtUp();
    await producer!.close();
    chain.addTick(2);
    chain.cutBlock();
    chain.grow(4);
    const again = start(chain);
    await again.caughtUp();
    expect(again.status().publishedTx).to.equal(chain.txs.length - 3 * 6 - 2);
    checkStream(await readStream(nats.url), chain.expected());
  });

  it('NATS down at start: keeps retrying without holding messages, says so, then catches up', async () => {
    nats = await natsServer({ start: false });
    const chain = new FakeChain();
    const registry = new Registry();
    const { logger, lines } = captureLogger();
    const p = start(chain, { registry, logger });
    for (let i = 0; i < 50; i++) chain.grow(10, 2, 10); // 10,000 transactions while NATS is away
    await until('a failed connect', () => p.status().lastError !== undefined);
    const down = p.status();
    expect(down.connected).to.equal(false);
    expect(down.state).to.equal('connecting');
    expect(down.pendingAcks).to.equal(0);
    expect(down.lagBlocks).to.equal(500);
    expect(await registry.metrics()).to.match(/^svc_mq_connected 0$/m);
    const warnings = lines.filter((l) => l.level === 40 && /unavailable/.test(l.msg));
    expect(warnings, 'one warning for the outage, not one per retry').to.have.length(1);

    await nats.start();
    await p.caughtUp();
    expect(p.status()).to.deep.include({ connected: true, lagBlocks: 0 });
    checkStream(await readStream(nats.url), chain.expected());
    expect(lines.some((l) => /NATS is back/.test(l.msg))).to.equal(true);
  });

  for (const how of ['kill', 'stop'] as const) {
    it(`NATS ${how === 'kill' ? 'killed (SIGKILL)' : 'stopped (SIGTERM)'} mid-run and restarted: the stream catches up, no gap, no duplicate`, async () => {
      nats = await natsServer();
      const chain = new FakeChain();
      const p = start(chain, { window: 64 });
      let growing = true;
      const grower = (async () => {
        while (growing) {
          chain.grow(1, 2, 25);
          await new Promise((r) => setTimeout(r, 2));
        }
      })();
      await until('some published', () => p.status().publishedBlocks > 20);
      expect(p.status()).to.deep.include({ streamAvailable: true, outages: 0, outageMs: 0 });
      await nats[how]();
      await until('disconnect seen', () => !p.status().connected);
      await new Promise((r) => setTimeout(r, 300));
      const down = p.status();
      expect(down).to.deep.include({ streamAvailable: false, outages: 1 });
      expect(down.outageMs).to.be.greaterThanOrEqual(250);
      const heightWhileDown = chain.latestHeight();
      await nats.start();
      await until('more after the restart', () => p.status().publishedHeight > heightWhileDown + 5);
      growing = false;
      await grower;
      await p.caughtUp();
      expect(p.status().resyncs).to.be.greaterThan(0);
      expect(p.status()).to.deep.include({ streamAvailable: true, outages: 1, outageMs: 0 });
      checkStream(await readStream(nats.url), chain.expected());
    });
  }

  it("refuses a stream that holds another chain, and one without the node's subjects", async () => {
    nats = await natsServer();
    const theirs = new FakeChain('theirs');
    theirs.grow(3);
    await start(theirs).caughtUp();
    await producer!.close();

    const ours = new FakeChain('ours');
    ours.grow(3);
    const { logger, lines } = captureLogger();
    const p = start(ours, { logger });
    await until('diverged', () => p.status().state === 'diverged');
    expect(p.status().lastError).to.match(/state root/);
    expect(lines.some((l) => l.level === 50 && /another chain/.test(l.msg))).to.equal(true);
    await producer!.close();
    expect((await readStream(nats.url)).length).to.equal(21); // untouched

    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'OTHER', subjects: ['dev.tx.*'] });
    await nc.close();
    const q = start(ours, { stream: 'OTHER', subjectPrefix: 'dev', logger });
    await until('config error', () => /does not capture dev\.blocks/.test(q.status().lastError ?? ''));
  });

  it('creates the stream with the replicas asked for; a server that cannot is named, a stream that differs reported', async () => {
    nats = await natsServer(); // one server: JetStream refuses more than 1 replica
    const chain = new FakeChain();
    chain.grow(2);
    const registry = new Registry();
    const { logger, lines } = captureLogger();
    const p = start(chain, { replicas: 3, logger, registry });
    await until('config error', () => /replica/.test(p.status().lastError ?? ''));
    expect(p.status().lastError).to.equal(
      'creating JetStream stream SVC with 3 replica(s) failed: replicas > 1 not supported in non-clustered mode',
    );
    expect(lines.filter((l) => l.level === 50 && /cannot take the node's messages/.test(l.msg))).to.have.length(1);
    expect(await registry.metrics()).to.match(/^svc_mq_stream_available 0$/m);
    await producer!.close();

    // An existing 1-replica stream, 3 asked for: published to all the same, with one warning.
    const nc = await connect({ servers: nats.url });
    await (await jetstreamManager(nc)).streams.add({ name: 'SVC', subjects: ['svc.tx.*', 'svc.blocks'] });
    await nc.close();
    const warned = captureLogger();
    await start(chain, { replicas: 3, logger: warned.logger }).caughtUp();
    checkStream(await readStream(nats.url), chain.expected());
    const notes = warned.lines.filter((l) => l.level === 40 && /replica/.test(l.msg));
    expect(notes.map((l) => l.msg)).to.deep.equal([
      'mq: JetStream stream SVC has 1 replica(s), --mq-replicas asks for 3; the node does not change an existing stream (nats stream edit SVC --replicas 3)',
    ]);
  });

  it('a failing read of the stored chain is logged as such, retried, and then caught up', async () => {
    nats = await natsServer();
    const chain = new FakeChain();
    chain.grow(2);
    let broken = true;
    const read = chain.transactionsAfter.bind(chain);
    chain.transactionsAfter = async (after, limit) => {
      if (broken) throw new Error('LevelDB is not open');
      return read(after, limit);
    };
    const { logger, lines } = captureLogger();
    const p = start(chain, { logger });
    await until('the read error', () =>
      /reading the stored chain failed: LevelDB is not open/.test(p.status().lastError ?? ''),
    );
    expect(lines.filter((l) => l.level === 50 && /cannot read the stored chain/.test(l.msg))).to.have.length(1);
    expect(lines.some((l) => /NATS JetStream unavailable/.test(l.msg))).to.equal(false);
    broken = false;
    await p.caughtUp();
    checkStream(await readStream(nats.url), chain.expected());
  });

  it('uses its own stream name and subject prefix', async () => {
    nats = await natsServer();
    const chain = new FakeChain();
    chain.grow(2);
    await start(chain, { stream: 'DEVNET', subjectPrefix: 'devnet.svc' }).caughtUp();
    checkStream(await readStream(nats.url, 'DEVNET'), chain.expected(), 'devnet.svc');
  });

  it('close() publishes what is stored before it lets go, and unsubscribes', async () => {
    nats = await natsServer();
    const chain = new FakeChain();
    const p = start(chain);
    await p.caughtUp();
    chain.grow(30, 2, 10);
    await p.close();
    producer = undefined;
    expect(chain.listenerCount()).to.equal(0);
    expect(p.status().state).to.equal('closed');
    checkStream(await readStream(nats.url), chain.expected());
    await p.caughtUp(100).then(
      () => expect.fail('caughtUp after close'),
      (err: Error) => expect(err.message).to.match(/closed|not caught up/),
    );
  });
});
