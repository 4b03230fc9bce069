/**
 * The NATS JetStream producer of the chain node (design.md "Message queue", docs/chain.md
 * "JetStream"): `--mq-url nats://host:port` publishes every stored order book transaction
 * and block to the stream SVC, resuming from the stream's last message after any restart.
 */
export type {
  MqBlock,
  MqCursor,
  MqMessage,
  MqOptions,
  MqPublisher,
  MqSource,
  MqState,
  MqStatus,
  MqTx,
} from './interface.js';
export { startMqPublisher } from './publisher.js';
export { redact } from './connection.js';
export { natsServerOptions } from './credentials.js';
export { MqConfigError, MqSourceError } from './errors.js';
export { chainSource, mqBlock, mqTx, storedTx, type StoredChain } from './source.js';
export { mqConsumer } from './consumer.js';
export { planNext, ChainOrderError, type Plan } from './order.js';
export { resumePoint, type LastMessage, type ResumePoint } from './resume.js';
export { defaultStreamConfig } from './stream.js';
export * from './subjects.js';
