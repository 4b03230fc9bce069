/**
 * A gRPC client of svc.sequencer.v1.SequencerService (@grpc/grpc-js with the project's
 * .proto through proto-loader: u64 as decimal strings, bytes as Buffers), and the wire
 * shapes it yields. Used by the CLI (src/cli) and by full nodes reading their leader
 * (src/follow).
 */
import * as grpc from '@grpc/grpc-js';
import { parseAddress } from '../../../wire/index.js';
import { formatHostPort } from '../../../wire/index.js';
import { loadSequencerPackage } from './proto.js';
import { FOLLOWER_METADATA } from './metadata.js';

export interface WireTransaction {
  tx_id: string;
  payload: Buffer;
  signature: Buffer;
  public_key: Buffer;
  nonce: string;
  timestamp: string;
}
export interface WireSubmitResponse {
  sequence_number: string;
  expected_tick: string;
  tx_hash: string;
}
export interface WireOrdered {
  transaction: WireTransaction;
  sequence_number: string;
  tx_hash: string;
  ingestion_timestamp: string;
}
export interface WireTick {
  tick_number: string;
  vdf_proof: { input: string; output: string; proof: string; iterations: string };
  transactions: WireOrdered[];
  transaction_batch_hash: string;
  timestamp: string;
  previous_output: string;
}
export interface WireStatus {
  current_tick: string;
  total_transactions: string;
  pending_transactions: string;
  uptime_seconds: string;
  transactions_per_second: number;
}
export interface ItemError {
  index: number;
  code: string;
  message: string;
}

/**
 * `host:port`, `[v6]:port`, or the same after grpc:// or http://, as a grpc-js target.
 * Throws an Error whose message starts with `what` (the flag that gave the address).
 */
export function grpcTarget(url: string, what = '--grpc-url'): string {
  const t = url
    .trim()
    .replace(/^(grpc|http):\/\//, '')
    .replace(/\/+$/, '');
  if (/^https:\/\//.test(t)) throw new Error(`${what}: the node serves plaintext gRPC; use host:port`);
  try {
    return formatHostPort(parseAddress(t));
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`);
  }
}

type Unary = (
  req: object,
  meta: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res: unknown) => void,
) => grpc.ClientUnaryCall;
type ServerStream = (req: object, metadata?: grpc.Metadata) => grpc.ClientReadableStream<WireTick>;

const UNARY_DEADLINE_MS = 30_000;

export class NodeClient {
  private readonly raw: grpc.Client & Record<string, Unary | ServerStream>;

  constructor(readonly target: string) {
    const pkg = grpc.loadPackageDefinition(loadSequencerPackage()) as unknown as {
      svc: { sequencer: { v1: { SequencerService: grpc.ServiceClientConstructor } } };
    };
    this.raw = new pkg.svc.sequencer.v1.SequencerService(grpcTarget(target), grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      'grpc-node.flow_control_window': 16 * 1024 * 1024, // StreamTicks keeps up under load (docs/api.md)
    }) as unknown as NodeClient['raw'];
  }

  private unary<T>(method: string, req: object): Promise<{ response: T; trailers: grpc.Metadata }> {
    return new Promise((resolve, reject) => {
      let response: T | undefined;
      let trailers: grpc.Metadata | undefined;
      const fn = this.raw[method] as Unary;
      const call = fn.call(
        this.raw,
        req,
        new grpc.Metadata(),
        { deadline: Date.now() + UNARY_DEADLINE_MS },
        (err, res) => {
          if (err) return reject(explain(err, this.target));
          response = res as T;
          if (trailers) resolve({ response, trailers });
        },
      );
      call.on('status', (s: grpc.StatusObject) => {
        trailers = s.metadata;
        if (response !== undefined) resolve({ response, trailers });
      });
    });
  }

  async submit(tx: WireTransaction): Promise<WireSubmitResponse> {
    return (await this.unary<WireSubmitResponse>('SubmitTransaction', { transaction: tx })).response;
  }

  /** SubmitBatch; failed items keep their place (sequence_number '0') and are listed in itemErrors. */
  async submitBatch(txs: WireTransaction[]): Promise<{ responses: WireSubmitResponse[]; itemErrors: ItemError[] }> {
    const { response, trailers } = await this.unary<{ responses: WireSubmitResponse[] }>('SubmitBatch', {
      transactions: txs,
    });
    const raw = trailers.get('svc-item-errors')[0];
    const itemErrors = typeof raw === 'string' ? (JSON.parse(raw) as ItemError[]) : [];
    return { responses: response.responses, itemErrors };
  }

  async getTransaction(
    txHash: string,
  ): Promise<{ found: boolean; tick_number: string; transaction: WireOrdered | null }> {
    return (
      await this.unary<{ found: boolean; tick_number: string; transaction: WireOrdered | null }>('GetTransaction', {
        tx_hash: txHash,
      })
    ).response;
  }

  async getTick(n: number): Promise<WireTick | undefined> {
    const r = (await this.unary<{ found: boolean; tick: WireTick | null }>('GetTick', { tick_number: String(n) }))
      .response;
    return r.found && r.tick ? r.tick : undefined;
  }

  async status(): Promise<WireStatus> {
    return (await this.unary<WireStatus>('GetStatus', {})).response;
  }

  /** Ticks from `start` (0 = the latest), in order, live once caught up; `follower`: a full node's stream, not paced. */
  streamTicks(start: number, options: { follower?: boolean } = {}): grpc.ClientReadableStream<WireTick> {
    const metadata = new grpc.Metadata();
    if (options.follower) metadata.set(FOLLOWER_METADATA, '1');
    return (this.raw.StreamTicks as ServerStream).call(this.raw, { start_tick: String(start) }, metadata);
  }

  close(): void {
    this.raw.close();
  }
}

/** An unreachable node, said plainly; other statuses pass through. */
export function explain(err: grpc.ServiceError, target: string): Error {
  if (
    err.code === grpc.status.UNAVAILABLE &&
    /No connection established|ECONNREFUSED|ENOTFOUND|connect/i.test(err.details)
  ) {
    const code = /\b(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|ECONNRESET)\b/.exec(err.details)?.[1];
    const words: Record<string, string> = {
      ECONNREFUSED: 'connection refused',
      ENOTFOUND: 'no such host',
      ETIMEDOUT: 'timed out',
      EHOSTUNREACH: 'host unreachable',
      ECONNRESET: 'connection reset',
    };
    const why = code ? words[code]! : err.details;
    const e = new Error(
      `cannot reach the node's gRPC face at ${target} (${why}): is the node running? Point --grpc-url or SVC_GRPC_URL at it`,
    );
    return Object.assign(e, { unreachable: true });
  }
  return err;
}
