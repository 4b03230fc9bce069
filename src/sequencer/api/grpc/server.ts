/**
 * The gRPC face: a grpc-js server with SequencerService, server reflection (so grpcurl
 * works without the .proto) and grpc.health.v1 (for load balancers), bound to one address,
 * with the wire's HTTP/2 bounds (streams per connection, client cancels).
 * Shutdown is two-phase so the node can finish in-flight work first: stopAccepting()
 * refuses new submissions and turns health NOT_SERVING (load balancers drain), close()
 * stops listening, ends the tick streams once they sent every tick so far, and the server.
 */
import { Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { PackageDefinition, ServiceDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import type { HostPort as ListenAddress, ReaderPace } from '../../../wire/index.js';
import { formatHostPort } from '../../../wire/index.js';
import type { Sequencer } from '../../index.js';
import { MAX_RECEIVE_MESSAGE_BYTES } from '../limits.js';
import { SEQUENCER_SERVICE, loadSequencerPackage } from '../client/index.js';
import { createHandlers, serviceDefinition } from './service.js';
import type { IntakeThreads } from './intake.js';
import type { StreamQueueLimits } from './stream-ticks.js';
import { DEFAULT_FEED_OPTIONS, TickFeed, type TickFeedOptions } from './tick-feed.js';
import { DEFAULT_TICK_STREAM_LIMITS, TickStreams } from './tick-streams.js';
import { guardSessions, HTTP2_SERVER_OPTIONS } from '../../../wire/index.js';

/** Another service on the same server (the chain's svc.chain.v1.ChainService). */
export interface ExtraGrpcService {
  name: string; // full service name, for health
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  packageDefinition: PackageDefinition; // for reflection
  stopAccepting?(): void;
  close?(): void; // before the server shuts down (end its streams)
  streams?(): number; // open streams, added to streamClients()
}

export interface GrpcFaceOptions {
  services?: ExtraGrpcService[];
  logger: Logger;
  maxReceiveMessageBytes?: number; // default MAX_RECEIVE_MESSAGE_BYTES (8 MiB)
  feed?: Partial<TickFeedOptions>; // stream window (default 65,536 ticks / 64 MiB)
  shutdownGraceMs?: number; // how long close() lets streams drain before forcing (default 5000)
  maxStreams?: number; // open StreamTicks calls at most (default MAX_TICK_STREAMS = 1024)
  maxStreamsPerConnection?: number; // open StreamTicks calls per client connection (default 16)
  streamQueue?: StreamQueueLimits; // per-stream send queue (default 256 messages / 1 MiB)
  maxStreamQueueBytes?: number; // all streams' send queues together (default 64 MiB)
  streamStallMs?: number; // reset a stream whose writes make no progress this long (default 30 s)
  readerPace?: ReaderPace; // the readers' byte budget (default: the process's one, docs/api.md)
  intake?: IntakeThreads; // --intake-threads: SubmitBatch decoded and prepared there (none: main thread); the caller closes it
  onSubmitBatch?: (intake: 'thread' | 'main') => void; // counts requests (metrics)
  /** More grpc.health.v1 names, SERVING at start (a full node's FOLLOWING_HEALTH); set with setHealth. */
  healthNames?: string[];
}

export interface GrpcFace {
  address: string; // host:port actually bound
  port: number;
  /** Open StreamTicks streams. */
  streamClients(): number;
  /** The open streams (limits, queues, stall resets): for tests and benchmarks. */
  readonly streams: TickStreams;
  readonly feed: TickFeed;
  /** Submissions being processed right now. */
  inFlight(): number;
  /** Set the health of one of `healthNames` (ignored once the face stops accepting). */
  setHealth(name: string, serving: boolean): void;
  /** Refuse new submissions (UNAVAILABLE); health turns NOT_SERVING; queries and streams go on. */
  stopAccepting(): void;
  /** Stop listening, end tick streams (after they sent what the feed has), then stop the server. */
  close(): Promise<void>;
}

export async function startGrpcFace(
  sequencer: Sequencer,
  addr: ListenAddress,
  options: GrpcFaceOptions,
): Promise<GrpcFace> {
  const { logger } = options;
  const server = new Server({
    'grpc.max_receive_message_length': options.maxReceiveMessageBytes ?? MAX_RECEIVE_MESSAGE_BYTES,
    'grpc.max_send_message_length': -1,
    // No channelz: nothing serves it, and with it on grpc-js counts every call and message
    // (closures, Date.now) on the main thread.
    'grpc.enable_channelz': 0,
    ...HTTP2_SERVER_OPTIONS,
  });
  const feed = new TickFeed(sequencer, { ...DEFAULT_FEED_OPTIONS, ...options.feed });
  const d = DEFAULT_TICK_STREAM_LIMITS;
  const streams = new TickStreams(
    sequencer,
    feed,
    logger,
    {
      maxStreams: options.maxStreams ?? d.maxStreams,
      maxStreamsPerConnection: options.maxStreamsPerConnection ?? d.maxStreamsPerConnection,
      queue: options.streamQueue ?? d.queue,
      maxQueuedBytes: options.maxStreamQueueBytes ?? d.maxQueuedBytes,
      stallMs: options.streamStallMs ?? d.stallMs,
    },
    options.readerPace,
  );
  const intake = sequencer.submitPrepared ? options.intake : undefined;
  const handlers = createHandlers(sequencer, feed, streams, logger, intake, options.onSubmitBatch);
  server.addService(serviceDefinition(intake !== undefined), handlers.implementation);
  const extra = options.services ?? [];
  for (const e of extra) server.addService(e.definition, e.implementation);
  new ReflectionService(
    Object.assign({}, loadSequencerPackage(), ...extra.map((e) => e.packageDefinition)),
  ).addToServer(server);
  const health = new HealthImplementation({
    '': 'SERVING',
    [SEQUENCER_SERVICE]: 'SERVING',
    ...Object.fromEntries(
      [...extra.map((e) => e.name), ...(options.healthNames ?? [])].map((n) => [n, 'SERVING' as const]),
    ),
  });
  health.addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(formatHostPort(addr), ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    );
  });
  guardSessions(server, logger);
  const address = formatHostPort({ host: addr.host, port });
  const stopAccepting = () => {
    if (handlers.state.stopping) return;
    handlers.state.stopping = true;
    health.setStatus('', 'NOT_SERVING');
    health.setStatus(SEQUENCER_SERVICE, 'NOT_SERVING');
    for (const e of extra) {
      health.setStatus(e.name, 'NOT_SERVING');
      e.stopAccepting?.();
    }
    for (const n of options.healthNames ?? []) health.setStatus(n, 'NOT_SERVING');
  };

  return {
    address,
    port,
    streamClients: () => streams.size + extra.reduce((n, e) => n + (e.streams?.() ?? 0), 0),
    streams,
    feed,
    inFlight: () => handlers.state.inFlight,
    setHealth(name, serving) {
      if (!handlers.state.stopping && (options.healthNames ?? []).includes(name))
        health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
    stopAccepting,
    async close() {
      stopAccepting();
      const shutdown = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      feed.close();
      streams.close();
      for (const e of extra) e.close?.();
      const grace = options.shutdownGraceMs ?? 5000;
      let timer: NodeJS.Timeout | undefined;
      const forced = new Promise<'forced'>((resolve) => (timer = setTimeout(() => resolve('forced'), grace)));
      const how = await Promise.race([shutdown.then(() => 'clean' as const), forced]);
      clearTimeout(timer);
      if (how === 'forced') {
        logger.warn('gRPC calls still open after the grace period; closing them');
        server.forceShutdown();
      }
    },
  };
}
