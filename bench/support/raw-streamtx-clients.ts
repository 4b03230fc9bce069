/**
 * Child process (child_process.fork) for bench:readers:
 * `perAddress` ChainService StreamTx{from_sequence} calls from each of the given loopback
 * source addresses (127.0.0.1, 127.0.0.2: two client addresses on one machine), each on its
 * own raw HTTP/2 connection (node:http2, no gRPC library), paused at once: the stream never
 * reads, so HTTP/2 flow control (64 KiB windows) stops the node's writes to it. Reports
 * `{ ready }` once every stream has its response headers, holds them until told to stop,
 * then reports what they took and the CPU this process used.
 */
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { connect as tcpConnect } from 'node:net';

export interface RawStreamTxJob {
  address: string; // host:port of the node's gRPC face
  sources: string[]; // local addresses to connect from
  perAddress: number;
  fromSequence: number;
}

export interface RawStreamTxResult {
  opened: number;
  bytes: number; // DATA bytes the paused streams took before flow control stopped them
  statuses: string[]; // distinct grpc-status values of streams that ended
  cpuMs: number;
}

async function run(job: RawStreamTxJob): Promise<void> {
  const [host, port] = splitHostPort(job.address);
  const sessions: ClientHttp2Session[] = [];
  const streams: ClientHttp2Stream[] = [];
  const statuses = new Set<string>();
  let bytes = 0;
  for (const source of job.sources) {
    for (let i = 0; i < job.perAddress; i++) {
      const session = connect(`http://${job.address}`, {
        createConnection: () => tcpConnect({ host, port, localAddress: source }),
      });
      session.on('error', () => undefined);
      const stream = session.request({
        ':method': 'POST',
        ':path': '/svc.chain.v1.ChainService/StreamTx',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      stream.on('error', () => undefined);
      stream.on('trailers', (t) => statuses.add(`${t['grpc-status']}: ${t['grpc-message'] ?? ''}`));
      stream.end(grpcFrame(varintField1(job.fromSequence)));
      await new Promise<void>((resolve, reject) => {
        stream.once('response', () => resolve());
        stream.once('close', () => reject(new Error(`StreamTx from ${source} closed before its headers`)));
      });
      stream.on('data', (b: Buffer) => (bytes += b.length));
      stream.pause();
      sessions.push(session);
      streams.push(stream);
    }
  }
  const cpu0 = process.cpuUsage();
  process.send!({ ready: true });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const cpu = process.cpuUsage(cpu0);
  for (const s of streams) s.close();
  for (const s of sessions) s.destroy();
  const result: RawStreamTxResult = {
    opened: streams.length,
    bytes,
    statuses: [...statuses],
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.send!({ result }, () => process.exit(0));
}

process.once('message', (job: RawStreamTxJob) => {
  run(job).catch((err: Error) => process.send!({ error: err.message }, () => process.exit(1)));
});

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

/** A gRPC length-prefixed message (uncompressed). */
function grpcFrame(body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Field 1 as a varint (StreamTxRequest.from_sequence); empty for 0. */
function varintField1(n: number): Buffer {
  if (n === 0) return Buffer.alloc(0);
  const bytes = [0x08];
  let v = n;
  while (v >= 0x80) {
    bytes.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}
