/**
 * The NATS JetStream producer of the chain node (design.md "Message queue", docs/chain.md
 * "JetStream"): `--mq-url nats://host:port` publishes every stored order book transaction
 * and block to the stream SVC, resuming from the stream's last message after any restart.
 */
export type { MqBlock, MqCursor, MqMessage, MqOptions, MqPublisher, MqSource, MqTx } from './interface.js';
export { startMqPublisher } from './publisher.js';
export { redact } from './connection.js';
export { natsServerOptions } from './credentials.js';
export { chainSource, mqBlock, mqTx, storedTx, type StoredChain } from './source.js';
export { mqConsumer } from './consumer.js';
export { planNext } from './order.js';
export { resumePoint, type LastMessage } from './resume.js';
export { subjects } from './subjects.js';
