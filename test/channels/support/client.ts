/**
 * Test support: a real `ws` client of the channels socket that queues every message (parsed
 * with u64 values as they come: these tests use small numbers) from the first byte, with
 * waits for the next message matching a predicate and for the close code.
 */
import WebSocket from 'ws';

export type Msg = Record<string, unknown> & { type: string };

const rawText = new WeakMap<Msg, string>();
/** The exact text of a received message (for byte-for-byte comparisons). */
export function rawOf(m: Msg): string {
  return rawText.get(m)!;
}

export class TestClient {
  readonly inbox: Msg[] = [];
  closeCode: number | undefined;
  private wake: (() => void) | undefined;
  private readonly closedP: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      const msg = JSON.parse(text) as Msg;
      rawText.set(msg, text);
      this.inbox.push(msg);
      this.wake?.();
    });
    this.closedP = new Promise((resolve) =>
      ws.on('close', (code: number) => {
        this.closeCode = code;
        this.wake?.();
        resolve(code);
      }),
    );
  }

  static open(url: string): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      const c = new TestClient(ws);
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** Take the first queued message matching `pred` (waiting up to `ms`); earlier ones stay. */
  async next(pred: (m: Msg) => boolean = () => true, ms = 10_000): Promise<Msg> {
    const until = Date.now() + ms;
    for (;;) {
      const i = this.inbox.findIndex(pred);
      if (i >= 0) return this.inbox.splice(i, 1)[0]!;
      if (this.closeCode !== undefined) throw new Error(`closed (${this.closeCode}) before the message`);
      if (Date.now() > until) throw new Error('no such message in time');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  closed(ms = 10_000): Promise<number> {
    return Promise.race([
      this.closedP,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('not closed in time')), ms)),
    ]);
  }

  close(): void {
    this.ws.close();
  }
}
