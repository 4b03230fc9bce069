/**
 * `svc verify` against bad ticks. A real node never serves one, so this test takes real
 * ticks (with transactions) from a real node and serves them again from a small grpc-js
 * server (TEST DOUBLE of the node's gRPC face: GetStatus and StreamTicks over the project's
 * .proto), with one tick tampered each time. verify must exit 1 naming the first bad tick
 * and why: a flipped proof, a changed payload, a changed batch hash, a broken chain, a bad
 * genesis link, a tick left out.
 */
import {
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeClient, type WireTick } from '../../src/sequencer/api/client/index.js';
import { sequencerServiceDefinition } from '../../src/sequencer/api/client/index.js';
import { SequencerClient, wireTx } from '../support/grpc-client.js';
import { spawnNode, type NodeProcess } from '../support/node-process.js';
import { svc } from './support.js';

/** Serve `ticks()` (tick n at index n-1) as a node at height `height()` would. */
async function serveTicks(
  ticks: () => WireTick[],
  height: () => number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = new Server();
  server.addService(sequencerServiceDefinition(), {
    GetStatus: (_call: ServerUnaryCall<object, object>, cb: sendUnaryData<object>) =>
      cb(null, {
        current_tick: String(height()),
        total_transactions: '0',
        pending_transactions: '0',
        uptime_seconds: '1',
        transactions_per_second: 0,
      }),
    StreamTicks: (call: ServerWritableStream<{ start_tick: string }, WireTick>) => {
      for (const t of ticks()) if (Number(t.tick_number) >= Number(call.request.start_tick)) call.write(t);
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { url: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

const flip = (hex: string): string => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

describe('svc verify names the first bad tick', function () {
  this.timeout(120_000);
  let dir: string;
  let node: NodeProcess;
  let real: WireTick[];
  let tampered: WireTick[];
  let fake: { url: string; close(): Promise<void> };
  let busy: number; // a tick that carries transactions
  let height: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-verify-'));
    node = await spawnNode(join(dir, 'db'), ['--idle-tick-ms', '10']);
    const client = new SequencerClient(node.addresses.grpc!);
    const { responses } = await client.submitBatch([wireTx(40, 'verify'), wireTx(60, 'verify'), wireTx(80, 'verify')]);
    const reader = new NodeClient(node.addresses.grpc!);
    const last = responses.at(-1)!.tx_hash;
    for (;;) {
      const found = await reader.getTransaction(last);
      if (found.found) {
        height = Math.max(40, Number(found.tick_number));
        if (Number((await reader.status()).current_tick) >= height) break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    real = [];
    for (let n = 1; n <= height; n++) real.push((await reader.getTick(n))!);
    reader.close();
    client.close();
    busy = Number(real.find((t) => t.transactions.length > 0)!.tick_number);
    fake = await serveTicks(
      () => tampered,
      () => height,
    );
  });
  beforeEach(() => {
    tampered = real.map((t) => ({
      ...t,
      vdf_proof: { ...t.vdf_proof },
      transactions: t.transactions.map((o) => ({ ...o, transaction: { ...o.transaction } })),
    }));
  });
  after(async () => {
    await fake?.close();
    node?.child.kill('SIGKILL');
    await node?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  const verify = () => svc('verify', '--quiet', '--grpc-url', fake.url);

  it('the real ticks, served again, verify (the double serves them faithfully)', async () => {
    const r = await verify();
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(new RegExp(`^verified ticks 1\\.\\.${height} \\(${height} ticks, 3 transactions\\)`));
  });

  it('a flipped proof: INVALID_PROOF at that tick', async () => {
    // A heartbeat (a Wesolowski proof; a trivially proven tick's proof is the element 1).
    const n = Number(real.find((t) => Number(t.tick_number) > 1 && Number(t.vdf_proof.iterations) > 127)!.tick_number);
    tampered[n - 1]!.vdf_proof.proof = flip(tampered[n - 1]!.vdf_proof.proof);
    const r = await verify();
    expect(r.code).to.equal(1);
    expect(r.err).to.equal(
      `svc verify: ticks 1..${n - 1} verified; tick ${n} is bad: INVALID_PROOF: the VDF proof does not verify`,
    );
  });

  it('a changed payload: BAD_TX_HASH', async () => {
    const tx = tampered[busy - 1]!.transactions[0]!.transaction;
    tx.payload = Buffer.concat([tx.payload, Buffer.from([1])]);
    const r = await verify();
    expect(r.code).to.equal(1);
    expect(r.err).to.match(
      new RegExp(
        `tick ${busy} is bad: BAD_TX_HASH: transaction 0 \\(verify-\\d+-\\d+\\) has tx_hash [0-9a-f]{8}, but its bytes hash to [0-9a-f]{8}$`,
      ),
    );
  });

  it('a changed batch hash: BAD_BATCH_HASH', async () => {
    tampered[busy - 1]!.transaction_batch_hash = flip(tampered[busy - 1]!.transaction_batch_hash);
    const r = await verify();
    expect(r.err).to.match(
      new RegExp(
        `tick ${busy} is bad: BAD_BATCH_HASH: transaction_batch_hash is not the Merkle root of the tick's \\d+ transaction hash`,
      ),
    );
  });

  it("a previous_output that is not the previous tick's output: CHAIN_BREAK", async () => {
    tampered[24]!.previous_output = tampered[22]!.vdf_proof.output;
    const r = await verify();
    expect(r.err).to.equal(
      'svc verify: ticks 1..24 verified; tick 25 is bad: CHAIN_BREAK: previous_output of tick 25 is not the output of tick 24',
    );
  });

  it('tick 1 not starting from genesis: BAD_GENESIS', async () => {
    tampered[0]!.previous_output = tampered[1]!.previous_output;
    const r = await verify();
    expect(r.err).to.equal('svc verify: tick 1 is bad: BAD_GENESIS: tick 1 must start from the genesis output');
  });

  it('a tick left out: MISSING_TICK, and --json says the same', async () => {
    tampered.splice(29, 1);
    const r = await svc('verify', '--quiet', '--json', '--grpc-url', fake.url);
    expect(r.code).to.equal(1);
    expect(JSON.parse(r.out)).to.deep.include({
      ok: false,
      verified: 29,
      first_bad: { tick: 30, code: 'MISSING_TICK', message: 'the node sent tick 31 where tick 30 was due' },
    });
  });
});
