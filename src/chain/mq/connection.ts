/**
 * The producer's NATS connection: how it connects (after the first connect, nats.js
 * reconnects by itself, forever) and how it learns of disconnects and reconnects.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsServerOptions } from './credentials.js';

/**
 * Connect to one of `url`'s comma-separated servers; rejects at once if none answers.
 * Credentials in the URLs go to the client as options (credentials.ts).
 */
export function connectNats(url: string): Promise<NatsConnection> {
  return connect({
    ...natsServerOptions(url),
    name: 'svc-node',
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    timeout: 2_000,
    pingInterval: 5_000,
    maxPingOut: 2,
    // No Error (with its stack) captured per request: about a sixth of the client's CPU
    // per publish; the producer's errors say what failed without them.
    noAsyncTraces: true,
  });
}

/** Calls `change(false)` on each disconnect and `change(true)` on each reconnect, until the connection closes. */
export async function watchConnection(
  nc: NatsConnection,
  change: (up: boolean, server: string) => void,
): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === 'disconnect') change(false, s.server);
    else if (s.type === 'reconnect') change(true, s.server);
  }
}

/** nats://user:secret@host -> nats://***@host, for logs. */
export function redact(url: string): string {
  return url.replace(/\/\/[^/@,]+@/g, '//***@');
}
