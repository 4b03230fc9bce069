/**
 * A bare gRPC unary client over node:http2 for the overload bench and tests: one HTTP/2
 * connection from a chosen loopback source address (`localAddress`, so the node sees
 * distinct client addresses), calls with raw protobuf bodies, the status read from the
 * trailers (or a trailers-only answer), and a call can be cancelled (RST_STREAM CANCEL)
 * after a delay. grpc-js clients cannot pick their source address.
 *
 * Also the SubmitTx request bytes of a signed order or cancel (svc.chain.v1 SubmitTxRequest).
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { signInline } from '../../src/dex/verifier.js';
import {
  cancelMessage,
  encodeCancelOrderData,
  encodeOrderIntent,
  orderMessage,
  type CancelOrderData,
  type OrderIntent,
} from '../../src/core/order-messages.js';

export const SUBMIT_TX = '/svc.chain.v1.ChainService/SubmitTx';

export interface UnaryAnswer {
  /**
   * grpc-status (0 = OK); -1: no status came (the connection or stream was lost); -2: the
   * server refused the stream unprocessed (REFUSED_STREAM, after its graceful GOAWAY).
   */
  code: number;
  details: string;
  ms: number;
  /** The HTTP/2 error code of a GOAWAY the connection got before this answer, if any. */
  goaway?: number;
}

export class H2Unary {
  private goawayCode: number | undefined;

  private constructor(readonly session: ClientHttp2Session) {
    session.on('goaway', (code: number) => (this.goawayCode = code));
    session.on('error', () => undefined);
  }

  static open(address: string, localAddress?: string): Promise<H2Unary> {
    const i = address.lastIndexOf(':');
    const [host, port] = [address.slice(0, i), Number(address.slice(i + 1))];
    const session = connect(`http://${address}`, {
      createConnection: () => netConnect({ host, port, ...(localAddress ? { localAddress } : {}) }),
    });
    return new Promise((resolve, reject) => {
      session.once('connect', () => resolve(new H2Unary(session)));
      session.once('error', reject);
    });
  }

  get goaway(): number | undefined {
    return this.goawayCode;
  }

  get usable(): boolean {
    return !this.session.closed && !this.session.destroyed && this.goawayCode === undefined;
  }

  /** One unary call; `cancelAfterMs` >= 0 resets the stream that long after sending. */
  call(path: string, body: Uint8Array, cancelAfterMs = -1): Promise<UnaryAnswer> {
    const start = performance.now();
    return new Promise((resolve) => {
      let code = -1;
      let details = '';
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        const a: UnaryAnswer = { code, details, ms: performance.now() - start };
        if (this.goawayCode !== undefined) a.goaway = this.goawayCode;
        resolve(a);
      };
      let stream;
      try {
        stream = this.session.request({
          ':method': 'POST',
          ':path': path,
          'content-type': 'application/grpc',
          te: 'trailers',
        });
      } catch (err) {
        details = (err as Error).message;
        return finish();
      }
      const read = (h: Record<string, unknown>): void => {
        if (h['grpc-status'] === undefined) return;
        code = Number(h['grpc-status']);
        details = decodeURIComponent(String(h['grpc-message'] ?? ''));
      };
      stream.on('response', read);
      stream.on('trailers', read);
      stream.on('data', () => undefined);
      stream.on('error', (err: Error) => (details ||= err.message));
      stream.on('close', () => {
        if (code === -1 && stream.rstCode === constants.NGHTTP2_REFUSED_STREAM) code = -2;
        finish();
      });
      stream.end(frame(body));
      if (cancelAfterMs >= 0) {
        setTimeout(() => {
          if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
        }, cancelAfterMs);
      }
    });
  }

  close(): void {
    this.session.close();
  }
}

/** SubmitTxRequest { order: SignedOrder { intent, signature } } */
export function orderRequest(intent: OrderIntent, secretKey: Uint8Array): Buffer {
  const signed = Buffer.concat([
    field(1, encodeOrderIntent(intent)),
    field(2, signInline(secretKey, orderMessage(intent))),
  ]);
  return field(1, signed);
}

/** SubmitTxRequest { cancel: SignedCancel { data, signature } } */
export function cancelRequest(data: CancelOrderData, secretKey: Uint8Array): Buffer {
  const signed = Buffer.concat([
    field(1, encodeCancelOrderData(data)),
    field(2, signInline(secretKey, cancelMessage(data))),
  ]);
  return field(2, signed);
}

/** SubmitTxRequest { market: CreateMarket { base_mint, quote_mint, name } } */
export function marketRequest(base: Uint8Array, quote: Uint8Array, name: string): Buffer {
  return field(3, Buffer.concat([field(1, base), field(2, quote), field(3, Buffer.from(name))]));
}

/** The market_id (a UUID string) of a SubmitTx answer is not read here: callers list markets over REST. */
function field(n: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([(n << 3) | 2, ...varint(bytes.length)]), bytes]);
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function frame(body: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.writeUInt32BE(body.length, 1);
  out.set(body, 5);
  return out;
}
