/**
 * The leader side of svc.follow.v1.FollowService: StreamBlockRoots follows the node's
 * stored chain (ChainReader.followBlocks: stored blocks, then live, in order) and writes
 * each block's root message, waiting for the client to take it (backpressure). Answers
 * UNAVAILABLE while the chain is starting. StreamSnapshot (snapshot-service.ts) sends the
 * node's latest chain snapshot to a follower starting from it.
 */
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import type { ChainReader } from '../chain/interface.js';
import type { ExtraGrpcService } from '../rpc/grpc/server.js';
import { streamSnapshotHandler, type SnapshotSource } from './snapshot-service.js';
import type { WireSnapshotChunk } from './snapshot-wire.js';
import { blockRootOf, FOLLOW_SERVICE, loadFollowPackage, type WireBlockRoot } from './block-roots.js';

type Call = grpc.ServerWritableStream<{ from_height: string }, WireBlockRoot>;

export function followService(chain: () => ChainReader | undefined, snapshots?: SnapshotSource): ExtraGrpcService {
  const open = new Set<{ call: Call; stop(): void }>();
  const snapshotCalls = new Set<grpc.ServerWritableStream<object, WireSnapshotChunk>>();
  let stopping = false;
  const implementation: grpc.UntypedServiceImplementation = {
    StreamSnapshot: snapshots
      ? streamSnapshotHandler(snapshots, snapshotCalls, () => stopping)
      : (call: grpc.ServerWritableStream<object, WireSnapshotChunk>) => call.emit('error', { code: grpc.status.UNIMPLEMENTED, details: 'this node serves no snapshots' }),
    StreamBlockRoots(call: Call) {
      const c = chain();
      if (!c || stopping) {
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: stopping ? 'the node is shutting down' : 'the chain is starting; retry' });
        return;
      }
      const from = Math.max(1, Number(call.request.from_height) || 1);
      const f = c.followBlocks(from, async (d) => {
        if (call.cancelled || call.destroyed) return f.stop();
        if (!call.write(blockRootOf(d))) await Promise.race([once(call, 'drain'), once(call, 'close')]);
      });
      const entry = { call, stop: () => f.stop() };
      open.add(entry);
      call.on('cancelled', () => f.stop());
      call.on('close', () => f.stop());
      void f.done.then(
        () => {
          open.delete(entry);
          if (!call.cancelled && !call.destroyed) call.end();
        },
        (err: unknown) => {
          open.delete(entry);
          if (!call.cancelled && !call.destroyed) call.emit('error', { code: grpc.status.INTERNAL, details: (err as Error).message });
        },
      );
    },
  };
  const pkg = loadFollowPackage();
  return {
    name: FOLLOW_SERVICE,
    definition: pkg[FOLLOW_SERVICE] as ServiceDefinition,
    implementation,
    packageDefinition: pkg,
    stopAccepting: () => {
      stopping = true;
    },
    close: () => {
      for (const e of open) e.stop();
      for (const c of snapshotCalls) c.end();
    },
    streams: () => open.size + snapshotCalls.size,
  };
}
