/**
 * A real @grpc/grpc-js client of svc.sequencer.v1.SequencerService for tests and
 * benchmarks, built from the .proto with proto-loader (so it checks the server against
 * the standard decoding, not against our own codec), with promise helpers.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { SEQUENCER_PROTO } from '../../src/sequencer/api/client/index.js';
import { LOADER_OPTIONS } from '../../src/wire/index.js';

export type {
  WireOrdered,
  WireSubmitResponse,
  WireTick,
  WireTransaction,
} from '../../src/sequencer/api/client/index.js';
import type { WireSubmitResponse, WireTick, WireTransaction } from '../../src/sequencer/api/client/index.js';

type Unary = (
  req: object,
  meta: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res: unknown) => void,
) => grpc.ClientUnaryCall;

export class SequencerClient {
  readonly raw: grpc.Client & Record<string, Unary | ((req: object) => grpc.ClientReadableStream<WireTick>)>;

  constructor(address: string, options: grpc.ChannelOptions = {}) {
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(SEQUENCER_PROTO, LOADER_OPTIONS)) as unknown as {
      svc: { sequencer: { v1: { SequencerService: grpc.ServiceClientConstructor } } };
    };
    const Ctor = pkg.svc.sequencer.v1.SequencerService;
    this.raw = new Ctor(address, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc.max_send_message_length': 64 * 1024 * 1024,
      'grpc-node.flow_control_window': 16 * 1024 * 1024, // keeps StreamTicks from lagging under load (docs/api.md)
      ...options,
    }) as unknown as SequencerClient['raw'];
  }

  call<T>(method: string, req: object): Promise<T> {
    return this.callWithTrailers<T>(method, req).then((r) => r.response);
  }

  callWithTrailers<T>(method: string, req: object): Promise<{ response: T; trailers: grpc.Metadata }> {
    return new Promise((resolve, reject) => {
      let response: T | undefined;
      let done = false;
      const fn = this.raw[method] as Unary;
      const call = fn.call(this.raw, req, new grpc.Metadata(), {}, (err, res) => {
        if (err) return reject(err);
        response = res as T;
        if (done) resolve({ response, trailers });
      });
      let trailers = new grpc.Metadata();
      call.on('status', (s: grpc.StatusObject) => {
        trailers = s.metadata;
        done = true;
        if (response !== undefined) resolve({ response, trailers });
      });
    });
  }

  submit(tx: WireTransaction): Promise<WireSubmitResponse> {
    return this.call('SubmitTransaction', { transaction: tx });
  }

  submitBatch(txs: WireTransaction[]): Promise<{ responses: WireSubmitResponse[] }> {
    return this.call('SubmitBatch', { transactions: txs });
  }

  stream(startTick: number | string): grpc.ClientReadableStream<WireTick> {
    return (this.raw.StreamTicks as (req: object) => grpc.ClientReadableStream<WireTick>).call(this.raw, {
      start_tick: String(startTick),
    });
  }

  close(): void {
    this.raw.close();
  }
}

let counter = 0;

/** A valid wire transaction with a unique tx_id and a payload of `size` bytes. */
export function wireTx(size = 100, prefix = 'tx'): WireTransaction {
  counter++;
  return {
    tx_id: `${prefix}-${process.pid}-${counter}`,
    payload: Buffer.alloc(size, counter & 0xff),
    signature: Buffer.alloc(64, 7),
    public_key: Buffer.alloc(32, 9),
    nonce: String((BigInt(process.pid) << 32n) | BigInt(counter)), // unique (public_key, nonce) across processes
    timestamp: String(Date.now() * 1000),
  };
}

/** Raw call with arbitrary request bytes: what a broken or hostile client could send. */
export function rawUnary(address: string, method: string, body: Buffer): Promise<Buffer> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  return new Promise<Buffer>((resolve, reject) => {
    client.makeUnaryRequest(
      `/svc.sequencer.v1.SequencerService/${method}`,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res!);
      },
    );
  });
}
