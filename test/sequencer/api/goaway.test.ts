/**
 * How the gRPC port's reset guard closes a connection (docs/api.md "Overload and HTTP/2")
 * while its client keeps opening streams until it reads the GOAWAY. `session.close()`, which
 * the guard used before, makes Node 20 refuse those streams from inside nghttp2's receive
 * callback; on Node 20.20 a bare server doing that under this client aborted with a
 * corrupted heap ("corrupted size vs. prev_size") within seconds in 4 runs of 4, and the
 * node built on it stopped answering for minutes in some full test runs. The guard's
 * `announceClose` (a GOAWAY with the highest stream id) keeps the server up and answers
 * every stream the client sent. The server runs in a child process, so a crash is seen as
 * its exit and a frozen event loop as missing heartbeats.
 */
import { expect } from 'chai';
import { fork } from 'node:child_process';
import { connect, type ClientHttp2Session } from 'node:http2';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./goaway-server.js', import.meta.url));
/** Connections the guard must have closed for the run to say anything. */
const MIN_GOAWAYS = 10;

interface Tally {
  connections: number;
  goaways: number[];
  answered: number;
  refused: number;
  lost: number;
}

describe('hostile: connections closed while their client keeps opening streams (HTTP/2 server in a child process)', function () {
  this.timeout(60_000);

  it("the guard's close (GOAWAY, highest stream id): the server stays up, every stream the client sent is answered", async () => {
    const server = fork(SERVER, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<string>((r) => server.once('exit', (code, signal) => r(`${code ?? signal}`)));
    try {
      const port = await new Promise<number>((resolve) =>
        server.on('message', (m: { port?: number }) => m.port && resolve(m.port)),
      );
      let lastBeat = performance.now();
      let longestGap = 0;
      server.on('message', (m: { beat?: boolean }) => {
        if (!m.beat) return;
        longestGap = Math.max(longestGap, performance.now() - lastBeat);
        lastBeat = performance.now();
      });
      let died: string | undefined;
      void exited.then((c) => (died = c));
      const tally = await hammer(port, 8_000, () => died !== undefined);
      const summary = JSON.stringify({ ...tally, goaways: tally.goaways.length, longestGap: Math.round(longestGap) });
      expect(died, `the server exited (${died}); stderr: ${stderr.slice(-500)}`).to.equal(undefined);
      expect(longestGap, `longest gap between heartbeats (ms): ${summary}`).to.be.below(3_000);
      expect(tally.goaways.length, summary).to.be.at.least(MIN_GOAWAYS);
      expect(new Set(tally.goaways), summary).to.deep.equal(new Set([0]));
      expect(tally.lost, summary).to.equal(0);
    } finally {
      server.kill('SIGKILL');
      await exited;
    }
  });
});

/**
 * Two lanes of connections, 64 streams in flight on each until its GOAWAY, for `ms` and until
 * MIN_GOAWAYS connections were closed (a loaded machine cycles fewer in `ms`), at most 30 s.
 */
async function hammer(port: number, ms: number, stop: () => boolean): Promise<Tally> {
  const tally: Tally = { connections: 0, goaways: [], answered: 0, refused: 0, lost: 0 };
  const soft = performance.now() + ms;
  const end = performance.now() + 30_000;
  const lane = async () => {
    while ((performance.now() < soft || tally.goaways.length < MIN_GOAWAYS) && performance.now() < end && !stop()) {
      tally.connections++;
      await oneConnection(port, tally, end);
    }
  };
  await Promise.all([lane(), lane()]);
  return tally;
}

async function oneConnection(port: number, tally: Tally, end: number): Promise<void> {
  const session: ClientHttp2Session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  let over = false;
  session.once('goaway', (code: number) => {
    tally.goaways.push(code);
    over = true;
  });
  session.once('close', () => (over = true));
  await new Promise<void>((resolve) => {
    session.once('connect', () => resolve());
    session.once('close', () => resolve());
  });
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; !over && performance.now() < end; i++) {
    // Requests leave in small groups (a yield every third), so that some reach the server
    // after it decided to close and before its GOAWAY went out.
    if (i % 3 === 2) await new Promise((r) => setImmediate(r));
    if (over) break;
    let stream;
    try {
      stream = session.request({ ':path': '/' }, { endStream: true });
    } catch {
      break; // the session took the GOAWAY between two requests
    }
    stream.on('error', () => undefined);
    const s = stream;
    const done = new Promise<void>((resolve) => {
      let status: number | undefined;
      s.on('response', (h) => (status = Number(h[':status'])));
      s.resume();
      s.on('close', () => {
        if (status === 200) tally.answered++;
        else if (s.rstCode === 7)
          tally.refused++; // REFUSED_STREAM: never processed (held back for a slot when the GOAWAY came)
        else tally.lost++;
        resolve();
      });
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
    if (inFlight.size >= 64) await Promise.race(inFlight);
  }
  await Promise.race([Promise.all(inFlight), new Promise((r) => setTimeout(r, 3_000))]);
  session.destroy();
}
