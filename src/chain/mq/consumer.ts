/**
 * The producer as a consumer of the chain face: started with the rpc face when --mq-url
 * is set (src/node/faces.ts CHAIN_CONSUMERS), closed before the chain closes.
 */
import type { ChainConsumerSpec } from '../interface.js';
import { startMqPublisher } from './publisher.js';
import { chainSource } from './source.js';

export const mqConsumer: ChainConsumerSpec = {
  name: 'mq',
  async start(ctx) {
    if (!ctx.config.mqUrl) return undefined;
    const publisher = startMqPublisher({
      url: ctx.config.mqUrl,
      replicas: ctx.config.mqReplicas,
      source: chainSource(ctx.chain),
      logger: ctx.logger,
      registry: ctx.registry,
    });
    return { close: () => publisher.close() };
  },
};
