/**
 * The HTTP/2 stream under a grpc-js server call, for the two things grpc-js (1.x) offers no
 * public way to do:
 *
 *  - learn that the stream already closed when the handler starts (a client that resets the
 *    stream while grpc-js decodes its request: grpc-js then never emits 'cancelled' on the
 *    call object created afterwards, and silently drops every write);
 *  - reset a stream whose client stopped reading (RST_STREAM ENHANCE_YOUR_CALM, which gRPC
 *    clients report as RESOURCE_EXHAUSTED): ending it with a status
 *    would leave the status queued behind data the client never takes, holding the stream's
 *    buffers until the connection closes.
 *
 * grpc-js keeps the stream at `call.call.stream` (ServerWritableStreamImpl -> its
 * BaseServerInterceptingCall), possibly behind interceptor wrappers (`nextCall`). When the
 * shape is not found (a future grpc-js), both functions say so and callers fall back to the
 * public API; test/sequencer/api/hostile-streams.test.ts fails if the shape changes.
 */
import { constants } from 'node:http2';

interface StreamLike {
  closed: boolean;
  destroyed: boolean;
  close(code?: number): void;
}

function isStreamLike(s: unknown): s is StreamLike {
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof (s as StreamLike).close === 'function' &&
    typeof (s as StreamLike).closed === 'boolean' &&
    'rstCode' in s
  );
}

function http2StreamOf(call: object): StreamLike | undefined {
  let inner: unknown = (call as { call?: unknown }).call;
  for (let depth = 0; depth < 8 && typeof inner === 'object' && inner !== null; depth++) {
    const stream = (inner as { stream?: unknown }).stream;
    if (isStreamLike(stream)) return stream;
    inner = (inner as { nextCall?: unknown }).nextCall;
  }
  return undefined;
}

/** Whether the call's HTTP/2 stream is already closed; undefined when it cannot be told. */
export function http2StreamClosed(call: object): boolean | undefined {
  const s = http2StreamOf(call);
  return s ? s.closed || s.destroyed : undefined;
}

/**
 * Reset the call's HTTP/2 stream with ENHANCE_YOUR_CALM (gRPC clients see RESOURCE_EXHAUSTED),
 * dropping what is queued; false when the stream is unreachable. The RST_STREAM leaves on the
 * next turn of the event loop: a caller may be running inside nghttp2's receive callback (a
 * new call displacing an old one), where Node would submit it with a re-entrant send
 * (src/wire/http2-guard.ts says why that must not happen).
 */
export function resetHttp2Stream(call: object): boolean {
  const s = http2StreamOf(call);
  if (!s) return false;
  setImmediate(() => {
    if (!s.closed && !s.destroyed) s.close(constants.NGHTTP2_ENHANCE_YOUR_CALM);
  });
  return true;
}
