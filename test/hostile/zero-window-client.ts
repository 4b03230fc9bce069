/**
 * Child process for test/hostile/follow-service.test.ts: the FollowService attack
 * with raw HTTP/2. Opens `connections` HTTP/2 connections with an initial window of 0 (the
 * server can send headers and trailers, never a DATA byte) and on each `streams`
 * StreamBlockRoots{from_height: 1}. Reports, once every stream has its response headers,
 * `{ admitted, refused, details }` (refused: trailers-only answers, by grpc-status), and on
 * each later 'count' message `{ resets }`: streams the server reset since. It keeps
 * everything open until the parent kills it.
 */
import { connect, type ClientHttp2Stream } from 'node:http2';

interface Job {
  address: string;
  connections: number;
  streams: number;
}

function frame(body: Buffer): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.writeUInt32BE(body.length, 1);
  body.copy(out, 5);
  return out;
}

process.on('message', (msg: Job | 'count') => {
  if (msg === 'count') return process.send!({ resets });
  void attack(msg);
});

let resets = 0;

async function attack(job: Job): Promise<void> {
  const answers: Array<Promise<{ status: string | undefined; message: string }>> = [];
  for (let c = 0; c < job.connections; c++) {
    const session = connect(`http://${job.address}`, { settings: { initialWindowSize: 0 } });
    session.on('error', () => undefined);
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    for (let i = 0; i < job.streams; i++) {
      const s: ClientHttp2Stream = session.request({
        ':method': 'POST',
        ':path': '/svc.follow.v1.FollowService/StreamBlockRoots',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      s.on('error', () => undefined);
      s.on('close', () => {
        if (s.rstCode !== undefined && s.rstCode !== 0) resets++;
      });
      s.end(frame(Buffer.from([0x08, 0x01])));
      answers.push(
        new Promise((resolve) =>
          s.once('response', (h) =>
            resolve({
              status: h['grpc-status'] as string | undefined,
              message: decodeURIComponent(String(h['grpc-message'] ?? '')),
            }),
          ),
        ),
      );
    }
  }
  const all = await Promise.all(answers);
  const refused = all.filter((a) => a.status !== undefined);
  process.send!({
    admitted: all.length - refused.length,
    refused: refused.map((r) => r.status),
    details: [...new Set(refused.map((r) => r.message))],
  });
}
