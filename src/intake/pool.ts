/**
 * The node's intake threads (`--intake-threads`, issue 8 point 2): requests go to an intake
 * worker (workers/intake.worker.ts) as the bytes that came off the wire, and come back
 * decoded and checked, in parallel across threads, while the main thread keeps the state
 * checks and the order (an arrival line, arrivals.ts). The pool knows no request: each
 * service registers its task by name, either one request per task call (`run`) or the
 * requests of one turn of the event loop together (`gathered`), when one task per request
 * would cost the main thread about as much in dispatch as the checks it moves away.
 */
import { Piscina } from 'piscina';
import { workerFile } from '../pool/index.js';
import { isIntakeRefusal } from './interface.js';

interface Queued<A> {
  bytes: Uint8Array;
  resolve(a: A): void;
  reject(e: unknown): void;
}

export class IntakePool {
  private readonly pool: Piscina;

  constructor(readonly threads: number) {
    this.pool = new Piscina({
      filename: workerFile('intake'),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
  }

  /**
   * One request's bytes to the task `name` on a thread; its answer. The bytes are a copy of
   * exactly the request, moved to the worker: `raw` may be a view into a larger buffer that
   * a structured clone would copy whole.
   */
  run<A>(name: string, raw: Uint8Array): Promise<A> {
    const bytes = new Uint8Array(raw);
    return this.pool.run(bytes, { name, transferList: [bytes.buffer] }) as Promise<A>;
  }

  /**
   * The task `name` for requests that arrive in the same turn, up to `perTask` at once: it
   * takes a list of requests' bytes and answers a list; an answer that is a Refusal rejects
   * its request's promise with it.
   */
  gathered<A>(name: string, perTask: number): (raw: Uint8Array) => Promise<A> {
    const queue: Array<Queued<A>> = [];
    const flush = (): void => {
      while (queue.length > 0) {
        const batch = queue.splice(0, perTask);
        const list = batch.map((b) => b.bytes);
        (
          this.pool.run(list, { name, transferList: list.map((b) => b.buffer as ArrayBuffer) }) as Promise<unknown[]>
        ).then(
          (answers) =>
            answers.forEach((a, i) => {
              if (isIntakeRefusal(a)) batch[i]!.reject(a);
              else batch[i]!.resolve(a as A);
            }),
          (err: unknown) => {
            for (const b of batch) b.reject(err);
          },
        );
      }
    };
    return (raw) =>
      new Promise<A>((resolve, reject) => {
        queue.push({ bytes: new Uint8Array(raw), resolve, reject });
        if (queue.length === 1) setImmediate(flush);
      });
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
