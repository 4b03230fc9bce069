/**
 * startNode() with the FakeSequencer double: prints one `listening` line per face with
 * the bound port, serves both faces, and shuts down in order (faces stop accepting, the
 * sequencer stops, then faces, pool and a real LevelDB close). The real engine is
 * covered end to end in test/e2e.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import cluster from 'node:cluster';
import { dexFace } from '../../src/node/faces.js';
import { startNode, type FaceSpec } from '../../src/node/index.js';
import { FakeSequencer } from '../support/fake-sequencer.js';
import { SequencerClient, wireTx } from '../support/grpc-client.js';

describe('node runner (startNode)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-node-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('binds every face, prints its address, and closes everything in order', async () => {
    const fake = new FakeSequencer();
    const events: string[] = [];
    const stop = fake.stop.bind(fake);
    fake.stop = async () => {
      events.push('sequencer.stop');
      await stop();
    };
    const lines: string[] = [];
    const config = nodeConfig([
      '--grpc-addr',
      '127.0.0.1:0',
      '--rest-addr',
      '127.0.0.1:0',
      '--dex-addr',
      '127.0.0.1:0',
      '--rpc-addr',
      '127.0.0.1:0',
      '--db-path',
      dir,
    ]);
    const node = await startNode(config, {
      logger: silentLogger(),
      print: (l) => lines.push(l),
      createSequencer: () => fake,
      poolThreads: 1,
    });
    expect(lines).to.have.length(4);
    expect(lines[0]).to.match(/^listening grpc 127\.0\.0\.1:\d+$/);
    expect(lines[1]).to.match(/^listening rest 127\.0\.0\.1:\d+$/);
    expect(lines[2]).to.match(/^listening dex 127\.0\.0\.1:\d+$/);
    expect(lines[3]).to.match(/^listening rpc 127\.0\.0\.1:\d+$/);
    expect(lines[0]).to.not.match(/:0$/);
    const client = new SequencerClient(node.addresses.grpc!);
    const r = await client.submit(wireTx());
    expect(r.sequence_number).to.equal('1');
    const health = await fetch(`http://${node.addresses.rest}/api/v1/health`);
    expect(health.status).to.equal(200);
    expect((await fetch(`http://${node.addresses.dex}/health`)).status).to.equal(200);
    expect((await fetch(`http://${node.addresses.rpc}/status`)).status).to.equal(200);
    client.close();
    await node.close();
    expect(events).to.deep.equal(['sequencer.stop']);
    expect(fake.ticks).to.have.length(1); // the pending transaction was ticked out by stop()
    await fetch(`http://${node.addresses.rest}/api/v1/health`).then(
      () => expect.fail('REST still listening after close'),
      (err: Error) => expect(err.message).to.match(/fetch failed/),
    );
  });

  it('runs extra faces from the list, and cleans up when one fails to start', async () => {
    const fake = new FakeSequencer();
    let stopped = false;
    fake.stop = async () => {
      stopped = true;
    };
    const closed: string[] = [];
    const ok: FaceSpec = {
      name: 'extra',
      start: async () => ({
        name: 'extra',
        address: '127.0.0.1:1',
        stopAccepting() {},
        close: async () => void closed.push('extra'),
      }),
    };
    const broken: FaceSpec = { name: 'broken', start: async () => Promise.reject(new Error('port in use')) };
    const config = nodeConfig(['--db-path', dir]);
    const lines: string[] = [];
    await startNode(config, {
      logger: silentLogger(),
      print: (l) => lines.push(l),
      createSequencer: () => fake,
      faces: [ok, broken],
      poolThreads: 1,
    }).then(
      () => expect.fail('should not start'),
      (err: Error) => expect(err.message).to.equal('the broken face failed to start: port in use'),
    );
    expect(lines).to.deep.equal([]); // no `listening` line once any face fails

    expect(closed).to.deep.equal(['extra']);
    expect(stopped).to.equal(true);
  });

  it('stops the gateway processes it forked first thing when a face before the order book fails', async () => {
    let forked = 0;
    const broken: FaceSpec = {
      name: 'broken',
      start: async () => {
        forked = Object.keys(cluster.workers ?? {}).length;
        throw new Error('port in use');
      },
    };
    const config = nodeConfig(['--db-path', dir, '--dex-addr', '127.0.0.1:0', '--gateways', '2']);
    await startNode(config, {
      logger: silentLogger(),
      print: () => undefined,
      createSequencer: () => new FakeSequencer(),
      faces: [broken, dexFace],
      poolThreads: 1,
    }).then(
      () => expect.fail('should not start'),
      (err: Error) => expect(err.message).to.match(/the broken face failed to start/),
    );
    expect(forked, 'dexFace.prepare forked two gateways before the broken face ran').to.equal(2);
    expect(Object.keys(cluster.workers ?? {})).to.deep.equal([]);
  });
});
