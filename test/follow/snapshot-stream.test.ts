/**
 * StreamSnapshot on the wire (src/follow/snapshot-service.ts and snapshot-client.ts): a
 * snapshot larger than one message goes in bounded chunks and comes back whole with its
 * description; a client that cancels stops the stream on the server (no call left open);
 * a node without a snapshot answers UNAVAILABLE with a clear message.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { encodeStoredSnapshot } from '../../src/chain/core/store.js';
import {
  fetchSnapshot,
  followService,
  loadFollowPackage,
  SNAPSHOT_CHUNK_BYTES,
  type SnapshotSource,
  type WireSnapshotChunk,
} from '../../src/follow/index.js';

async function serve(source: SnapshotSource): Promise<{ address: string; streams(): number; close(): Promise<void> }> {
  const service = followService({ chain: () => undefined, snapshots: source });
  const server = new grpc.Server();
  server.addService(service.definition as unknown as grpc.ServiceDefinition, service.implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    streams: () => service.streams?.() ?? 0,
    close: () => new Promise((r) => server.tryShutdown(() => r())),
  };
}

describe('StreamSnapshot (chunks, cancel, no snapshot)', function () {
  this.timeout(20_000);
  const builder = JSON.stringify({ lastTick: 9, lastHeight: 3, producedHeight: 2 });
  const bytes = encodeStoredSnapshot({ tick: 9, builder, engine: randomBytes(3 * SNAPSHOT_CHUNK_BYTES + 123) });
  const source: SnapshotSource = {
    bytes: async () => bytes,
    lastSequenceAt: async (t) => (t === 9 ? 41 : -1),
    openRecords: async () => ({ transactions: [], events: [] }),
  };

  it('sends a snapshot of several MiB in chunks of at most 1 MiB, whole and described', async () => {
    const node = await serve(source);
    try {
      const got = await fetchSnapshot(node.address);
      expect(got.info).to.deep.include({
        tick: 9,
        totalBytes: bytes.length,
        lastSequence: 41,
        producedHeight: 2,
        lastHeight: 3,
      });
      expect(Buffer.compare(Buffer.from(got.bytes), Buffer.from(bytes))).to.equal(0);
    } finally {
      await node.close();
    }
  });

  it('a client that cancels after the first chunk stops the stream on the server', async () => {
    const node = await serve(source);
    const pkg = grpc.loadPackageDefinition(loadFollowPackage()) as unknown as {
      svc: { follow: { v1: { FollowService: grpc.ServiceClientConstructor } } };
    };
    const client = new pkg.svc.follow.v1.FollowService(
      node.address,
      grpc.credentials.createInsecure(),
    ) as unknown as grpc.Client & { StreamSnapshot(r: object): grpc.ClientReadableStream<WireSnapshotChunk> };
    try {
      const sizes: number[] = [];
      await new Promise<void>((resolve) => {
        const s = client.StreamSnapshot({});
        s.on('data', (m: WireSnapshotChunk) => {
          sizes.push(m.data?.length ?? 0);
          if (sizes.length === 2) {
            s.cancel();
            resolve();
          }
        });
        s.on('error', () => undefined);
      });
      expect(sizes[1]).to.equal(SNAPSHOT_CHUNK_BYTES);
      const end = Date.now() + 5000;
      while (node.streams() > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(node.streams()).to.equal(0);
    } finally {
      client.close();
      await node.close();
    }
  });

  it('a node without a snapshot answers UNAVAILABLE, said plainly', async () => {
    const node = await serve({ ...source, bytes: async () => undefined });
    try {
      const err = await fetchSnapshot(node.address).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message).to.match(
        /serves no snapshot \(--follow-from snapshot\): this node has no chain snapshot yet/,
      );
    } finally {
      await node.close();
    }
  });
});
