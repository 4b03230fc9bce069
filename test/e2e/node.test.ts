/**
 * End to end through the real binary and engine, the way a client uses the node: submit
 * over gRPC, watch the tick arrive on StreamTicks, find it over REST, and verify the
 * REST tick's VDF proof with the VDF package's own verifier (what the browser verifier
 * does). Also checks that both faces agree byte for byte and that /metrics moves.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRestTick, referenceVdfEngine } from '../../src/vdf/index.js';
import { SequencerClient, wireTx, type WireTick } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { until } from '../support/until.js';

describe('end to end: a client session against the real node', function () {
  this.timeout(60_000);
  let dir: string;
  let node: NodeProcess;
  let client: SequencerClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-node-'));
    node = await spawnNode(dir, ['--idle-tick-ms', '30']);
    client = new SequencerClient(node.addresses.grpc!);
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('submit -> tick on the stream -> same tick over gRPC and REST -> VDF proof verifies', async () => {
    const stream = client.stream(0);
    const ticks: WireTick[] = [];
    stream.on('data', (t: WireTick) => ticks.push(t));
    stream.on('error', () => {});
    const txs = Array.from({ length: 20 }, () => wireTx(150, 'session'));
    const { responses } = await client.submitBatch(txs);
    expect(responses.every((r) => r.sequence_number !== '0')).to.equal(true);
    const wanted = new Set(responses.map((r) => r.tx_hash));
    const carrying = await new Promise<WireTick>((resolve) => {
      const check = () => {
        const t = ticks.find((x) => x.transactions.some((o) => wanted.has(o.tx_hash)));
        if (t) resolve(t);
        else setTimeout(check, 20);
      };
      check();
    });
    const n = Number(carrying.tick_number);
    expect(n).to.be.at.least(Number(responses[0]!.expected_tick) - 1);
    const numbers = ticks.map((t) => Number(t.tick_number));
    expect(numbers).to.deep.equal(numbers.map((_, i) => numbers[0]! + i)); // consecutive

    // The metrics see the stream while it is open.
    const metrics = await (await fetch(`http://${node.addresses.rest}/metrics`)).text();
    expect(metrics).to.match(/^svc_stream_clients 1$/m);
    expect(Number(/^svc_current_tick (\d+)$/m.exec(metrics)![1])).to.be.at.least(n);
    stream.cancel();

    const got = await client.call<{ found: boolean; tick: WireTick }>('GetTick', { tick_number: String(n) });
    expect(got.found).to.equal(true);
    expect(got.tick).to.deep.equal(carrying);

    const res = await fetch(`http://${node.addresses.rest}/api/v1/tick/${n}`);
    expect(res.status).to.equal(200);
    const json = (await res.json()) as {
      tick: {
        vdf_proof: WireTick['vdf_proof'] & { iterations: number };
        previous_output: string;
        transaction_batch_hash: string;
        transaction_count: number;
        vdf_iterations: number;
      };
    };
    expect(json.tick.vdf_proof.output).to.equal(carrying.vdf_proof.output);
    expect(json.tick.previous_output).to.equal(carrying.previous_output);
    expect(json.tick.transaction_batch_hash).to.equal(carrying.transaction_batch_hash);
    expect(json.tick.transaction_count).to.equal(carrying.transactions.length);
    expect(json.tick.vdf_iterations).to.equal(Number(carrying.vdf_proof.iterations));
    expect(referenceVdfEngine().verify(parseRestTick(json))).to.equal(true);

    // The chain links: this tick's previous_output is the previous tick's output.
    const prev = await fetch(`http://${node.addresses.rest}/api/v1/tick/${n - 1}`);
    if (n > 1) {
      const p = (await prev.json()) as { tick: { vdf_proof: { output: string } } };
      expect(p.tick.vdf_proof.output).to.equal(json.tick.previous_output);
    }

    const hash = responses[0]!.tx_hash;
    const tx = (await (await fetch(`http://${node.addresses.rest}/api/v1/tx/${hash}`)).json()) as {
      found: boolean;
      tick_number: number;
      transaction: { tx_id: string };
    };
    expect(tx.found).to.equal(true);
    expect(tx.transaction.tx_id).to.equal(txs[0]!.tx_id);
  });

  it('status, chain state, recent ticks and health agree with each other', async () => {
    const status = await client.call<{ current_tick: string; total_transactions: string }>('GetStatus', {});
    const chain = await client.call<{ chain_height: string; recent_ticks: WireTick[] }>('GetChainState', {
      tick_limit: 5,
    });
    expect(Number(chain.chain_height)).to.be.at.least(Number(status.current_tick));
    expect(chain.recent_ticks).to.have.length(5);
    const recent = (await (await fetch(`http://${node.addresses.rest}/api/v1/ticks/recent?limit=5`)).json()) as {
      ticks: Array<{ tick_number: number }>;
      total: number;
    };
    expect(recent.total).to.equal(5);
    const nums = recent.ticks.map((t) => t.tick_number);
    expect(nums).to.deep.equal([...nums].sort((a, b) => b - a));
    const health = await fetch(`http://${node.addresses.rest}/api/v1/health`);
    expect(health.status).to.equal(200);
    const bad = await client.call('GetTick', { tick_number: '0' }).then(
      () => 'ok',
      (e: grpc.ServiceError) => e.code,
    );
    expect(bad).to.equal(grpc.status.INVALID_ARGUMENT);
  });
});

describe('end to end: ticks beyond --retain-ticks come from disk through the same calls', function () {
  this.timeout(60_000);
  let dir: string;
  let node: NodeProcess;
  let client: SequencerClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-disk-'));
    node = await spawnNode(dir, ['--retain-ticks', '5', '--idle-tick-ms', '5']);
    client = new SequencerClient(node.addresses.grpc!);
  });
  after(async () => {
    client?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('GetTick, REST tick and a StreamTicks replay serve pruned ticks identically to fresh ones', async () => {
    const { responses } = await client.submitBatch([wireTx(100, 'disk'), wireTx(100, 'disk')]);
    // The transactions' tick is whichever the batcher hands the clock first: on a loaded
    // machine idle ticks can come before it. Wait for it to be stored, then for 40 more
    // ticks, so that it too is served from disk.
    const lookup = () =>
      client.call<{ found: boolean; tick_number: string }>('GetTransaction', { tx_hash: responses[0]!.tx_hash });
    const txTick = await until('the transactions to be stored', async () => {
      const r = await lookup();
      return r.found ? Number(r.tick_number) : undefined;
    });
    await until('40 ticks after the transactions', async () => {
      const height = Number((await client.call<{ current_tick: string }>('GetStatus', {})).current_tick);
      return height >= txTick + 40 ? height : undefined;
    });
    // Tick 1 is long out of memory (only the newest 5 are kept).
    const viaGrpc = await client.call<{ found: boolean; tick: WireTick }>('GetTick', { tick_number: '1' });
    expect(viaGrpc.found).to.equal(true);
    const rest = (await (await fetch(`http://${node.addresses.rest}/api/v1/tick/1`)).json()) as {
      found: boolean;
      tick: { vdf_proof: { output: string } };
    };
    expect(rest.found).to.equal(true);
    expect(rest.tick.vdf_proof.output).to.equal(viaGrpc.tick.vdf_proof.output);
    const recent = (await (await fetch(`http://${node.addresses.rest}/api/v1/ticks/recent?limit=100`)).json()) as {
      total: number;
    };
    expect(recent.total).to.be.at.most(5); // recent ticks are the ones held in memory

    const tx = await lookup();
    expect(tx.found).to.equal(true);
    expect(Number(tx.tick_number)).to.equal(txTick);

    const replay: WireTick[] = [];
    const want = Math.max(30, txTick + 1); // through the transactions' tick
    const stream = client.stream(1);
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (t: WireTick) => {
        replay.push(t);
        if (replay.length === want) resolve();
      });
      stream.on('error', reject);
    });
    stream.cancel();
    expect(replay.map((t) => Number(t.tick_number))).to.deep.equal(Array.from({ length: want }, (_, i) => i + 1));
    expect(replay[txTick - 1]!.transactions.map((t) => t.tx_hash)).to.include(responses[0]!.tx_hash);
    expect(replay[0]).to.deep.equal(viaGrpc.tick);
    for (let i = 1; i < replay.length; i++)
      expect(replay[i]!.previous_output).to.equal(replay[i - 1]!.vdf_proof.output);
  });
});
