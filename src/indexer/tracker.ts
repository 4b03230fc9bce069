/**
 * What the indexer knows about itself, in one place: read by /health and /metrics at
 * request time, written by the consumer as it goes. Also the waiters of reached().
 */
import type { IndexerState, IndexerStatus } from './interface.js';

export class Tracker {
  state: IndexerState = 'connecting';
  dbUp = false;
  natsUp = false;
  consuming: boolean;
  streamSeq = 0;
  height = 0;
  lagMessages = 0;
  lagSeconds = 0;
  error: string | null = null;
  readonly written = { tx: 0, block: 0 };
  readonly retries = { nats: 0, database: 0 };
  private waiters: Array<{ seq: number; resolve: () => void }> = [];

  constructor(consuming: boolean) {
    this.consuming = consuming;
    if (!consuming) this.state = 'reading-only';
  }

  status(): IndexerStatus {
    return {
      state: this.state,
      database: this.dbUp ? 'up' : 'down',
      nats: this.consuming ? (this.natsUp ? 'up' : 'down') : 'off',
      stream_seq: this.streamSeq,
      height: this.height,
      lag_messages: this.lagMessages,
      error: this.error,
    };
  }

  healthy(): boolean {
    if (!this.dbUp) return false;
    return !this.consuming || (this.natsUp && this.state === 'consuming');
  }

  /** The database stands at stream sequence `seq` now. */
  at(seq: number): void {
    this.streamSeq = seq;
    this.waiters = this.waiters.filter((w) => {
      if (w.seq > seq) return true;
      w.resolve();
      return false;
    });
  }

  reached(seq: number, timeoutMs: number): Promise<void> {
    if (this.streamSeq >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `indexer did not reach stream sequence ${seq} in ${timeoutMs} ms (at ${this.streamSeq}; ${this.state}${this.error ? `: ${this.error}` : ''})`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ seq, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}
