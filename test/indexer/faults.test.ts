/**
 * Exactly once through crashes, with the real parts: the same stream indexed cleanly and
 * through a kill -9 of the `svc indexer` process (several times, mid-stream), of
 * PostgreSQL (its whole process group) and of nats-server gives the same database, table
 * for table, row for row. While PostgreSQL or NATS is away the indexer retries and says so
 * on /health and /metrics. A stream of another chain, or one that does not start at the
 * chain's start, is refused, and nothing is written.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect } from 'chai';
import { silentLogger } from '../../src/log/index.js';
import { startIndexer, type Indexer, type IndexerOptions } from '../../src/indexer/index.js';
import { readStream } from '../support/jetstream.js';
import { freePort, natsServer } from '../support/nats-server.js';
import { dumpDatabase, rowCount } from './support/dump.js';
import { getJson, getText, startFixture, type Fixture } from './support/fixture.js';
import { spawnIndexer } from './support/indexer-process.js';

async function until<T>(what: string, get: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const v = await get();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Health {
  status: string;
  state: string;
  database: string;
  nats: string;
  stream_seq: number;
  error: string | null;
}

const health = async (base: string) => JSON.parse((await getText(`${base}/health`)).body) as Health;

describe('indexer: exactly once through crashes, and refusals', function () {
  this.timeout(120_000);
  let fx: Fixture;
  let clean: Record<string, string>;
  let cleanUrl: string;
  const open: Indexer[] = [];

  const start = async (pgUrl: string, extra: Partial<IndexerOptions> = {}) => {
    const ix = await startIndexer({
      pgUrl,
      mqUrl: fx.nats.url,
      mqStream: 'SVC',
      indexerConsumer: `c${open.length}`,
      indexerAddr: { host: '127.0.0.1', port: 0 },
      indexerBatch: 3,
      logger: silentLogger(),
      retryMinMs: 50,
      retryMaxMs: 200,
      stallRetryMs: 200,
      ...extra,
    });
    open.push(ix);
    return { ix, base: `http://127.0.0.1:${ix.address.port}` };
  };

  before(async () => {
    fx = await startFixture(1000);
    cleanUrl = await fx.pg.createDatabase('clean');
    const { ix } = await start(cleanUrl, { indexerBatch: 1000 });
    await ix.reached(fx.lastSeq);
    clean = await dumpDatabase(cleanUrl);
    const txs = (await readStream(fx.nats.url)).filter((m) => m.subject !== 'svc.blocks').length;
    expect(await rowCount(cleanUrl, 'transactions')).to.equal(txs);
  });

  after(async () => {
    for (const ix of open) await ix.close().catch(() => undefined);
    await fx?.close();
  });

  it('loses and duplicates nothing when the indexer process is killed with SIGKILL mid-stream', async () => {
    const url = await fx.pg.createDatabase('killed');
    let kills = 0;
    let seq = 0;
    for (let round = 0; round < 2 && seq < fx.lastSeq; round++) {
      const p = await spawnIndexer([
        '--pg-url',
        url,
        '--mq-url',
        fx.nats.url,
        '--indexer-batch',
        '4',
        '--indexer-consumer',
        'killed',
      ]);
      const target = seq + Math.max(10, Math.floor(fx.lastSeq / 3));
      seq = await until('progress', async () => {
        const h = await health(p.url);
        return h.stream_seq >= Math.min(target, fx.lastSeq) ? h.stream_seq : undefined;
      }).catch(async (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(await health(p.url).catch(() => null))}\n${p.stderr()}`);
      });
      if (seq < fx.lastSeq) kills++;
      p.child.kill('SIGKILL');
      await p.exited;
    }
    expect(kills, 'kills that landed mid-stream').to.be.greaterThan(0);
    const p = await spawnIndexer(['--pg-url', url, '--mq-url', fx.nats.url, '--indexer-consumer', 'killed']);
    await until('the end of the stream', async () =>
      (await health(p.url)).stream_seq === fx.lastSeq ? true : undefined,
    );
    p.child.kill('SIGTERM');
    expect(await p.exited).to.equal(0);
    expect(await dumpDatabase(url)).to.deep.equal(clean);
  });

  it('loses and duplicates nothing when PostgreSQL is killed with SIGKILL mid-stream, and says so meanwhile', async () => {
    const url = await fx.pg.createDatabase('pgkill');
    const { ix, base } = await start(url);
    await until('progress', async () => ((await health(base)).stream_seq > 20 ? true : undefined));
    await fx.pg.kill();
    const down = await until('the outage on /health', async () => {
      const res = await getText(`${base}/health`);
      const h = JSON.parse(res.body) as Health;
      return res.status === 503 && h.database === 'down' ? h : undefined;
    });
    expect(down.status).to.equal('degraded');
    expect((await getText(`${base}/blocks/1`)).status).to.equal(503);
    const stopped = down.stream_seq;
    expect(stopped).to.be.lessThan(fx.lastSeq);
    await until('a database retry on /metrics', async () =>
      /^svc_indexer_retries_total\{cause="database"\} [1-9]/m.test(await (await fetch(`${base}/metrics`)).text())
        ? true
        : undefined,
    );
    await fx.pg.start();
    await ix.reached(fx.lastSeq);
    expect(await dumpDatabase(url)).to.deep.equal(clean);
    expect((await health(base)).status).to.equal('ok');
  });

  it('loses and duplicates nothing when nats-server is killed with SIGKILL mid-stream, and says so meanwhile', async () => {
    const url = await fx.pg.createDatabase('natskill');
    const { ix, base } = await start(url);
    await until('progress', async () => ((await health(base)).stream_seq > 20 ? true : undefined));
    await fx.nats.kill();
    const down = await until('the outage on /health', async () => {
      const res = await getText(`${base}/health`);
      const h = JSON.parse(res.body) as Health;
      return res.status === 503 && h.nats === 'down' ? h : undefined;
    });
    expect(down.stream_seq).to.be.lessThan(fx.lastSeq);
    expect(await (await fetch(`${base}/metrics`)).text()).to.match(/^svc_indexer_nats_up 0$/m);
    await fx.nats.start();
    await ix.reached(fx.lastSeq);
    expect(await dumpDatabase(url)).to.deep.equal(clean);
  });

  it("refuses a stream of another chain, and one that does not start at the chain's start", async () => {
    // Another nats-server whose stream SVC holds the real chain from its 10th message on.
    const other = await natsServer();
    try {
      const messages = await readStream(fx.nats.url);
      const nc = await connect({ servers: other.url });
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'SVC', subjects: ['svc.tx.*', 'svc.blocks'] });
      for (const m of messages.slice(9)) await nc.request(m.subject, m.data);
      await nc.close();

      const fresh = await fx.pg.createDatabase('notfromstart');
      const a = await start(fresh, { mqUrl: other.url });
      const stalled = await until('stalled', async () => {
        const h = await health(a.base);
        return h.state === 'stalled' ? h : undefined;
      });
      expect(stalled.error).to.match(/does not start at the chain's start/);
      expect(await rowCount(fresh, 'transactions')).to.equal(0);
      await until('svc_indexer_stalled 1', async () =>
        /^svc_indexer_stalled 1$/m.test(await (await fetch(`${a.base}/metrics`)).text()) ? true : undefined,
      );

      // The clean database (the whole chain) meets a stream shorter than what it holds.
      const b = await start(cleanUrl, { mqUrl: other.url, indexerConsumer: 'clean-other' });
      const diverged = await until('diverged', async () => {
        const res = await getText(`${b.base}/health`);
        const h = JSON.parse(res.body) as Health;
        return res.status === 503 && h.state === 'diverged' ? h : undefined;
      });
      expect(diverged.error).to.match(/another stream/);
      await until('svc_indexer_diverged 1', async () =>
        /^svc_indexer_diverged 1$/m.test(await (await fetch(`${b.base}/metrics`)).text()) ? true : undefined,
      );
      expect(await dumpDatabase(cleanUrl)).to.deep.equal(clean);
    } finally {
      await other.dispose();
    }
  });

  it('retries an unreachable NATS and an unreachable PostgreSQL, reporting both, without exiting', async () => {
    const deadNats = `nats://127.0.0.1:${await freePort()}`;
    const a = await start(await fx.pg.createDatabase('nonats'), { mqUrl: deadNats });
    const h = await until('NATS down on /health', async () => {
      const res = await getText(`${a.base}/health`);
      const v = JSON.parse(res.body) as Health;
      return res.status === 503 && v.nats === 'down' && v.database === 'up' ? v : undefined;
    });
    expect(h.state).to.equal('connecting');
    await until('a NATS retry on /metrics', async () =>
      /^svc_indexer_retries_total\{cause="nats"\} [1-9]/m.test(await (await fetch(`${a.base}/metrics`)).text())
        ? true
        : undefined,
    );

    const deadPg = `postgres://svc@127.0.0.1:${await freePort()}/none`;
    const b = await start(deadPg);
    const v = await until('PostgreSQL down on /health', async () => {
      const res = await getText(`${b.base}/health`);
      const j = JSON.parse(res.body) as Health;
      return res.status === 503 && j.database === 'down' ? j : undefined;
    });
    expect(v.error).to.be.a('string');
    const res = await getText(`${b.base}/markets/${fx.marketId}/trades`);
    expect(res.status).to.equal(503);
    expect(JSON.parse(res.body).error).to.match(/database is unavailable/);
    expect(await getJson<unknown>(`${a.base}/openapi.json`)).to.have.property('paths');
  });
});
