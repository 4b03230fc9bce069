/**
 * The leader side of svc.follow.v1.FollowService (docs/full-node.md "FollowService limits"):
 * StreamBlockRoots sends the root of each stored block from from_height, then of each new
 * block (roots-stream.ts), from one cache shared by all streams (root-cache.ts: each block
 * is read and hashed once for the node). StreamSnapshot (snapshot-service.ts) sends the
 * node's latest chain snapshot to a follower starting from it.
 *
 * Requests go through the strict decoders (requests.ts): malformed bytes answer
 * INVALID_ARGUMENT. Both methods share the admission limits of StreamSlots: at most
 * FOLLOW_STREAM_LIMITS.maxStreams per node, maxPerConnection per client connection and
 * maxPerAddress per client address (RESOURCE_EXHAUSTED beyond, naming the limit), and a
 * block roots stream whose client stops reading is reset after the stall timeout
 * (--stream-stall-ms). UNAVAILABLE while the chain is starting or the node shuts down.
 */
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition, ServiceDefinition } from '@grpc/proto-loader';
import { detailJson } from '../chain/core/index.js';
import type { ChainReader } from '../chain/core/index.js';
import { StreamSlots, type SlotHolder, type StreamSlotLimits } from '../wire/index.js';
import { isMalformed, type Malformed } from '../sequencer/api/index.js';
import type { ExtraGrpcService } from '../sequencer/api/index.js';
import { FOLLOW_SERVICE, loadFollowPackage } from './block-roots.js';
import { decodeStreamBlockRootsRequest, decodeStreamSnapshotRequest } from './requests.js';
import { BlockRootCache, type RootChain, type StoredBlocks } from './root-cache.js';
import { BlockRootSession } from './roots-stream.js';
import { streamSnapshotHandler, type SnapshotSource } from './snapshot-service.js';
import type { WireSnapshotChunk } from './snapshot-messages.js';

export const FOLLOW_STREAM_LIMITS: StreamSlotLimits = {
  maxStreams: 256,
  maxPerConnection: 8,
  maxPerAddress: 32,
  stallMs: 30_000,
};

export interface FollowServiceOptions {
  chain: () => (ChainReader & RootChain) | undefined;
  /** The stored blocks (the node's ChainStore); the chain's own readBlock otherwise. */
  stored?: StoredBlocks;
  snapshots?: SnapshotSource;
  limits?: Partial<StreamSlotLimits>;
}

const passthrough = (value: Buffer): Buffer => value;
const DECODERS: Record<string, (buf: Buffer) => object> = {
  StreamBlockRoots: decodeStreamBlockRootsRequest,
  StreamSnapshot: decodeStreamSnapshotRequest,
};

/** The service definition with the strict request decoders; block roots go out pre-encoded. */
export function followDefinition(): ServiceDefinition {
  const base = loadFollowPackage()[FOLLOW_SERVICE] as ServiceDefinition;
  const out: Record<string, MethodDefinition<object, object>> = {};
  for (const [name, def] of Object.entries(base) as Array<[string, MethodDefinition<object, object>]>) {
    const decode = DECODERS[name];
    if (!decode) throw new Error(`no request decoder for FollowService/${name}`);
    out[name] = {
      ...def,
      requestDeserialize: decode,
      ...(name === 'StreamBlockRoots' ? { responseSerialize: passthrough as never } : {}),
    };
  }
  return out as ServiceDefinition;
}

/** A snapshot call as the slots see it: released when the call closes; it has its own drain waits. */
class SnapshotSlot implements SlotHolder {
  stalledFor(): number {
    return 0;
  }
  reset(): void {}
}

export function followService(
  options: FollowServiceOptions,
): ExtraGrpcService & { slots: StreamSlots<SlotHolder>; cache(): BlockRootCache | undefined } {
  const slots = new StreamSlots<SlotHolder>('FollowService streams', { ...FOLLOW_STREAM_LIMITS, ...options.limits });
  const snapshotCalls = new Set<grpc.ServerWritableStream<object, WireSnapshotChunk>>();
  let cache: BlockRootCache | undefined;
  let stopping = false;
  const refuse = (call: grpc.ServerWritableStream<unknown, unknown>, code: grpc.status, details: string): void =>
    void call.emit('error', { code, details });

  const storedOf = (chain: ChainReader): StoredBlocks =>
    options.stored ?? {
      read: async (h) => {
        const d = await chain.readBlock(h);
        return d ? { stateRoot: d.block.state_root, json: detailJson(d) } : undefined;
      },
    };

  const snapshotHandler = options.snapshots
    ? streamSnapshotHandler(options.snapshots, snapshotCalls, () => stopping)
    : undefined;
  const implementation: grpc.UntypedServiceImplementation = {
    StreamSnapshot(call: grpc.ServerWritableStream<object | Malformed, WireSnapshotChunk>) {
      if (isMalformed(call.request)) return refuse(call, grpc.status.INVALID_ARGUMENT, call.request.malformed);
      if (!snapshotHandler) return refuse(call, grpc.status.UNIMPLEMENTED, 'this node serves no snapshots');
      const peer = call.getPeer();
      const refused = slots.refusal(peer);
      if (refused) return refuse(call, grpc.status.RESOURCE_EXHAUSTED, refused);
      const slot = new SnapshotSlot();
      slots.add(peer, slot);
      const release = (): void => slots.release(slot);
      call.once('close', release);
      call.once('cancelled', release);
      call.once('finish', release);
      snapshotHandler(call as grpc.ServerWritableStream<object, WireSnapshotChunk>);
    },
    StreamBlockRoots(call: grpc.ServerWritableStream<{ fromHeight: number } | Malformed, Buffer>) {
      const req = call.request;
      if (isMalformed(req)) return refuse(call, grpc.status.INVALID_ARGUMENT, req.malformed);
      const chain = options.chain();
      if (!chain || stopping)
        return refuse(
          call,
          grpc.status.UNAVAILABLE,
          stopping ? 'the node is shutting down' : 'the chain is starting; retry',
        );
      const peer = call.getPeer();
      const refused = slots.refusal(peer);
      if (refused) return refuse(call, grpc.status.RESOURCE_EXHAUSTED, refused);
      cache ??= new BlockRootCache(chain, storedOf(chain));
      const session = new BlockRootSession(
        call as grpc.ServerWritableStream<unknown, Buffer>,
        cache,
        () => stopping,
        (s) => slots.release(s),
      );
      slots.add(peer, session);
      void session.run(req.fromHeight).catch((err: unknown) => {
        if (!call.cancelled)
          refuse(call, grpc.status.INTERNAL, `reading block roots failed: ${(err as Error).message}`);
      });
    },
  };
  return {
    name: FOLLOW_SERVICE,
    definition: followDefinition(),
    implementation,
    packageDefinition: loadFollowPackage(),
    stopAccepting: () => {
      stopping = true;
    },
    close: () => {
      stopping = true;
      cache?.close(); // wakes waiting sessions: they end their calls
      for (const c of snapshotCalls) c.end();
      slots.stopSweeping();
    },
    streams: () => slots.size,
    slots,
    cache: () => cache,
  };
}
