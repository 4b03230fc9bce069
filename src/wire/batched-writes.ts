/**
 * Batched writes for a grpc-js server stream: grpc-js hands one message to HTTP/2 per write
 * completion, i.e. one per event-loop turn, which under load (turns of ~10 ms) is far slower
 * than the messages come (ticks, transaction batches, block roots). This gives the call a
 * `_writev` (Node's Writable batch hook, built only on the call's own `_write`) so every
 * queued message goes to HTTP/2 in one turn.
 */

type WriteCallback = (error?: Error | null) => void;
interface BatchableWritable {
  _write(chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void;
  _writev?: (chunks: Array<{ chunk: unknown; encoding: BufferEncoding }>, callback: WriteCallback) => void;
}

/** Let the call's Writable hand all its buffered messages to HTTP/2 at once. */
export function enableBatchedWrites(call: object): void {
  const w = call as BatchableWritable;
  if (typeof w._writev === 'function') return;
  w._writev = function (this: BatchableWritable, chunks, callback) {
    let left = chunks.length;
    let failed = false;
    for (const { chunk, encoding } of chunks) {
      this._write(chunk, encoding, (err) => {
        if (failed) return;
        if (err) {
          failed = true;
          callback(err);
        } else if (--left === 0) callback();
      });
    }
  };
}
