/**
 * A fake leader for the full node's fault tests: a real gRPC server (grpc-js, the
 * project's protos) that serves recorded ticks (GetStatus, GetTick, StreamTicks from
 * start_tick, then stays open as a live stream would; `ticks` is read at each call, so a
 * test may replace one in place to turn a bad leader into a good one) and recorded block roots
 * (FollowService.StreamBlockRoots), after letting the test corrupt any of them; and, if
 * given, a chain snapshot (FollowService.StreamSnapshot) as recorded or tampered messages,
 * or an error status.
 */
import * as grpc from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import { shortHash } from '../../../src/core/tx-hash.js';
import type { Tick } from '../../../src/core/types.js';
import type { WireTick } from '../../../src/sequencer/api/client/index.js';
import {
  FOLLOW_SERVICE,
  loadFollowPackage,
  type WireBlockRoot,
  type WireSnapshotChunk,
} from '../../../src/follow/index.js';
import { loadSequencerPackage, SEQUENCER_SERVICE } from '../../../src/sequencer/api/client/index.js';
import { bytesToHex } from '../../../src/vdf/index.js';

export function wireOf(t: Tick): WireTick {
  return {
    tick_number: String(t.tickNumber),
    vdf_proof: {
      input: bytesToHex(t.vdfProof.input),
      output: bytesToHex(t.vdfProof.output),
      proof: bytesToHex(t.vdfProof.proof),
      iterations: String(t.vdfProof.iterations),
    },
    transactions: t.transactions.map((o) => ({
      transaction: {
        tx_id: o.transaction.txId,
        payload: Buffer.from(o.transaction.payload),
        signature: Buffer.from(o.transaction.signature),
        public_key: Buffer.from(o.transaction.publicKey),
        nonce: o.transaction.nonce.toString(),
        timestamp: o.transaction.timestamp.toString(),
      },
      sequence_number: String(o.sequenceNumber),
      tx_hash: shortHash(o.txHash),
      ingestion_timestamp: String(o.ingestionTimestamp),
    })),
    transaction_batch_hash: bytesToHex(t.batchHash),
    timestamp: String(t.timestamp),
    previous_output: bytesToHex(t.previousOutput),
  };
}

export interface FakeLeader {
  address: string;
  /** StreamTicks calls received (start ticks). */
  streamStarts: number[];
  close(): Promise<void>;
}

/** `endFirstAfter`: the first StreamTicks call ends after this many ticks (a leader going away). */
export interface FakeLeaderOptions {
  endFirstAfter?: number;
  /** StreamTicks calls after the first: these messages first (a leader resending what it sent before). */
  resendFirst?: WireTick[];
  /** StreamSnapshot: these messages, then the end; or this error status. */
  snapshot?: WireSnapshotChunk[] | { code: grpc.status; details: string };
}

export async function fakeLeader(
  ticks: WireTick[],
  roots: WireBlockRoot[],
  options: FakeLeaderOptions = {},
): Promise<FakeLeader> {
  const server = new grpc.Server();
  const streamStarts: number[] = [];
  const open = new Set<grpc.ServerWritableStream<unknown, unknown>>();
  const seq = loadSequencerPackage()[SEQUENCER_SERVICE] as ServiceDefinition;
  server.addService(seq as unknown as grpc.ServiceDefinition, {
    GetStatus: (_call: unknown, cb: grpc.sendUnaryData<object>) =>
      cb(null, {
        current_tick: String(ticks.length),
        total_transactions: '0',
        pending_transactions: '0',
        uptime_seconds: '1',
        transactions_per_second: 0,
      }),
    GetTick: (call: grpc.ServerUnaryCall<{ tick_number: string }, object>, cb: grpc.sendUnaryData<object>) => {
      const t = ticks[Number(call.request.tick_number) - 1];
      cb(null, t ? { found: true, tick: t } : { found: false });
    },
    StreamTicks: (call: grpc.ServerWritableStream<{ start_tick: string }, WireTick>) => {
      const from = Math.max(1, Number(call.request.start_tick));
      streamStarts.push(from);
      open.add(call as grpc.ServerWritableStream<unknown, unknown>);
      call.on('cancelled', () => open.delete(call as grpc.ServerWritableStream<unknown, unknown>));
      const first = streamStarts.length === 1 && options.endFirstAfter !== undefined;
      if (streamStarts.length > 1) for (const t of options.resendFirst ?? []) call.write(t);
      for (const t of ticks.slice(from - 1, first ? from - 1 + options.endFirstAfter! : undefined)) call.write(t);
      if (first) call.end();
    },
  });
  const follow = loadFollowPackage()[FOLLOW_SERVICE] as ServiceDefinition;
  server.addService(follow as unknown as grpc.ServiceDefinition, {
    StreamBlockRoots: (call: grpc.ServerWritableStream<{ from_height: string }, WireBlockRoot>) => {
      const from = Math.max(1, Number(call.request.from_height));
      open.add(call as grpc.ServerWritableStream<unknown, unknown>);
      call.on('cancelled', () => open.delete(call as grpc.ServerWritableStream<unknown, unknown>));
      for (const r of roots.slice(from - 1)) call.write(r);
    },
    StreamSnapshot: (call: grpc.ServerWritableStream<object, WireSnapshotChunk>) => {
      const s = options.snapshot;
      if (s === undefined)
        return call.emit('error', { code: grpc.status.UNIMPLEMENTED, details: 'no snapshot in this fake leader' });
      if (!Array.isArray(s)) return call.emit('error', s);
      for (const m of s) call.write(m);
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    streamStarts,
    close: () =>
      new Promise((resolve) => {
        for (const c of open) c.end();
        server.tryShutdown(() => resolve());
        setTimeout(() => server.forceShutdown(), 2000).unref();
      }),
  };
}

/** The first `count` block roots a real node serves on FollowService/StreamBlockRoots (what a fake leader replays). */
export async function recordBlockRoots(grpcAddress: string, count: number): Promise<WireBlockRoot[]> {
  const pkg = grpc.loadPackageDefinition(loadFollowPackage()) as unknown as {
    svc: { follow: { v1: { FollowService: grpc.ServiceClientConstructor } } };
  };
  const client = new pkg.svc.follow.v1.FollowService(
    grpcAddress,
    grpc.credentials.createInsecure(),
  ) as unknown as grpc.Client & { StreamBlockRoots(r: object): grpc.ClientReadableStream<WireBlockRoot> };
  try {
    return await new Promise<WireBlockRoot[]>((resolve, reject) => {
      const got: WireBlockRoot[] = [];
      const s = client.StreamBlockRoots({ from_height: '1' });
      s.on('data', (r: WireBlockRoot) => {
        got.push(r);
        if (got.length === count) {
          s.cancel();
          resolve(got);
        }
      });
      s.on('error', (e: grpc.ServiceError) => (e.code === grpc.status.CANCELLED ? undefined : reject(e)));
    });
  } finally {
    client.close();
  }
}
