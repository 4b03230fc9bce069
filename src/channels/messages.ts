/**
 * The server's messages of the channels protocol (docs/chain.md "Channels"), as JSON text:
 * welcome, subscribed, unsubscribed, error and heartbeat, plus the data messages' envelopes
 * (block, order, snapshot, delta). u64 values are exact JSON integers (encodeJson). Every
 * message names the tick it comes from.
 */
import { encodeJson } from '../wire/index.js';
import type { ChannelLimits, RefusalCode } from './protocol.js';

export function welcomeJson(tick: number, height: number, limits: ChannelLimits): string {
  return encodeJson({
    type: 'welcome',
    tick,
    height,
    heartbeat_ms: limits.heartbeatMs,
    limits: {
      subscriptions: limits.subscriptions,
      message_bytes: limits.messageBytes,
      messages_per_second: limits.messagesPerSecond,
      queue_bytes: limits.queueBytes,
    },
  });
}

export function heartbeatJson(tick: number, height: number): string {
  return `{"type":"heartbeat","tick":${tick},"height":${height}}`;
}

/** The answer to a subscribe: what the channel is and where it starts. */
export function subscribedJson(id: string | number, tick: number, channel: Record<string, unknown>): string {
  return encodeJson({ type: 'subscribed', id, tick, ...channel });
}

export function unsubscribedJson(id: string | number, tick: number): string {
  return encodeJson({ type: 'unsubscribed', id, tick });
}

export function errorJson(id: string | number | null, tick: number, code: RefusalCode, message: string): string {
  return encodeJson({ type: 'error', id, tick, code, message });
}

/** A block message: the stored block detail JSON (exactly GET /blocks/:height) in an envelope. */
export function blockJson(height: number, tick: number, detailJson: string): string {
  return `{"type":"block","channel":"blocks","height":${height},"tick":${tick},"detail":${detailJson}}`;
}
