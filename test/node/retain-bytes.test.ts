/**
 * --retain-bytes (docs/operations.md "Memory"): the flag and its variable parse byte counts
 * with binary suffixes, and a real node holds no more recent ticks in memory than the bound
 * allows (older ticks are still served, from disk, through the same calls).
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeConfig, parseNodeConfig } from '../../src/config/index.js';
import { SequencerClient, wireTx } from '../support/grpc-client.js';
import { spawnNode } from '../support/node-process.js';

describe('--retain-bytes', () => {
  it('defaults to 1 GiB and reads bytes, KiB, MiB and GiB from the flag and SVC_RETAIN_BYTES', () => {
    expect(nodeConfig([]).retainBytes).to.equal(1024 ** 3);
    expect(nodeConfig(['--retain-bytes', '2097152']).retainBytes).to.equal(2 * 1024 * 1024);
    expect(nodeConfig(['--retain-bytes', '512KiB']).retainBytes).to.equal(512 * 1024);
    expect(nodeConfig(['--retain-bytes=64MiB']).retainBytes).to.equal(64 * 1024 * 1024);
    expect(nodeConfig([], { SVC_RETAIN_BYTES: '2GiB' }).retainBytes).to.equal(2 * 1024 ** 3);
    for (const bad of ['0', '1000', '1.5GiB', '-1', '1TB', 'lots', '99999999999999999999']) {
      const out = parseNodeConfig(['--retain-bytes', bad]);
      expect(out.kind, bad).to.equal('error');
      expect(out.kind === 'error' && out.message, bad).to.match(/--retain-bytes/);
    }
  });

  it('a real node with --retain-bytes 256KiB keeps only the newest ticks in memory and serves older ones from disk', async function () {
    this.timeout(60_000);
    const dir = await mkdtemp(join(tmpdir(), 'svc-retain-bytes-'));
    const node = await spawnNode(dir, ['--retain-bytes', '256KiB', '--idle-tick-ms', '5']);
    const client = new SequencerClient(node.addresses.grpc!);
    try {
      // ~2 MB of transactions (8 x 1,000 x ~250 bytes) over many ticks: far beyond 256 KiB.
      for (let i = 0; i < 8; i++) await client.submitBatch(Array.from({ length: 1000 }, () => wireTx(200)));
      let height = 0;
      for (let i = 0; i < 200 && height < 50; i++) {
        const s = await client.call<{ current_tick: string; pending_transactions: string }>('GetStatus', {});
        height = s.pending_transactions === '0' ? Number(s.current_tick) : 0;
        if (height < 50) await new Promise((r) => setTimeout(r, 50));
      }
      // ticks/recent lists only ticks held in memory: walk back until it runs out.
      let held = 0;
      for (let offset = 0; offset < height; offset += 100) {
        const res = (await (
          await fetch(`http://${node.addresses.rest}/api/v1/ticks/recent?limit=100&offset=${offset}`)
        ).json()) as { total: number };
        held += res.total;
        if (res.total < 100) break;
      }
      expect(held, `ticks held in memory of ${height}`).to.be.lessThan(height);
      // 256 KiB (+1/8) at >= ~600 bytes per tick and ~250 bytes per transaction: at most ~480 ticks' worth
      expect(held, `ticks held in memory of ${height}`).to.be.at.most(Math.ceil((256 * 1024 * 1.125) / 600));
      // The oldest tick is still served, from disk, by gRPC and REST.
      const first = await client.call<{ found: boolean; tick: { transactions: unknown[] } }>('GetTick', {
        tick_number: '1',
      });
      expect(first.found).to.equal(true);
      expect((await fetch(`http://${node.addresses.rest}/api/v1/tick/1`)).status).to.equal(200);
    } finally {
      client.close();
      node.child.kill('SIGKILL');
      await node.exited;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
