/**
 * The list of faces `svc node` runs, started in this order and closed in reverse.
 * Adding one is one FaceSpec entry here.
 *
 * The faces share the node's order book runtime (ctx.book: engine, applier, signatures,
 * order entry) and its chain (ctx.chain), both started by the node before any face; the
 * gRPC face serves the chain's svc.chain.v1.ChainService on them.
 */
import type { ChainConsumerSpec } from '../chain/index.js';
import type { RpcRouteHook } from '../chain/api/index.js';
import { chainDefinition, createChainHandlers, type ChainBackend } from '../chain/api/index.js';
import { CHAIN_SERVICE, loadChainPackage } from '../chain/api/client/index.js';
import { mqConsumer } from '../chain/index.js';
import {
  dexForwarder,
  Follower,
  FOLLOWING_HEALTH,
  followService,
  snapshotSource,
  startRootsCheck,
  storedBlocks,
} from '../follow/index.js';
import { registerChainMetrics } from '../chain/api/index.js';
import { startRpcFace, submitTxAnswer } from '../chain/api/index.js';
import { explorerPage } from '../chain/api/index.js';
import { startDex, type DexDeps } from '../dex/api/index.js';
import { prepareGatewayFace, type PreparedGatewayFace } from '../dex/api/gateway/index.js';
import { startGrpcFace } from '../sequencer/api/index.js';
import { IntakeThreads } from '../sequencer/api/index.js';
import { startRestFace } from '../sequencer/api/index.js';
import { CHAIN_SNAPSHOT_CODE } from './chain-snapshots.js';
import { followLeaders, type NodeConfig } from '../config/index.js';
import type { FaceSpec, NodeContext, RunningFace } from './interface.js';

/**
 * Hooks of the chain face (--rpc-addr): extra routes on its HTTP server (the explorer page
 * at `/`, told the indexer of --indexer-url), and consumers of the stored chain started with
 * it (the NATS JetStream producer when --mq-url is set). One entry per hook; see
 * src/chain/api/interface.ts and src/chain/interface.ts.
 */
export function rpcRouteHooks(config: NodeConfig): RpcRouteHook[] {
  return [explorerPage({ indexerUrl: config.indexerUrl })];
}
/** A full node's roots check, started with the chain's consumers; nothing unless --follow is set. */
const rootsCheckConsumer: ChainConsumerSpec = {
  name: 'follow-roots',
  start: async (ctx) =>
    ctx.config.follow === undefined
      ? undefined
      : startRootsCheck({
          leaders: followLeaders(ctx.config.follow),
          chain: ctx.chain,
          db: ctx.db,
          logger: ctx.logger,
          ...(ctx.sequencer ? { sequencer: ctx.sequencer } : {}),
        }),
};

export const CHAIN_CONSUMERS: ChainConsumerSpec[] = [mqConsumer, rootsCheckConsumer];

export const grpcFace: FaceSpec = {
  name: 'grpc',
  async start(ctx) {
    // Intake threads (--intake-threads): SubmitBatch and SubmitTx checked off the main thread.
    const intake = ctx.config.intakeThreads > 0 ? new IntakeThreads(ctx.config.intakeThreads) : undefined;
    const chainHandlers = createChainHandlers({
      intake,
      backend: (): ChainBackend => ({ chain: ctx.chain.chain, gateway: ctx.book.orderEntry }),
      logger: ctx.logger,
      submitRate: ctx.config.submitTxRate,
      streamRate: ctx.config.streamTxRate,
    });
    const follower = ctx.sequencer instanceof Follower ? ctx.sequencer : undefined;
    const started = startGrpcFace(ctx.sequencer, ctx.config.grpcAddr, {
      logger: ctx.logger,
      streamStallMs: ctx.config.streamStallMs,
      intake,
      onSubmitBatch: (where) => ctx.metrics.submitBatch(where),
      ...(follower ? { healthNames: [FOLLOWING_HEALTH] } : {}),
      services: [
        {
          name: CHAIN_SERVICE,
          definition: chainDefinition(intake !== undefined),
          implementation: chainHandlers.implementation,
          packageDefinition: loadChainPackage(),
          stopAccepting: () => chainHandlers.stopAccepting(),
          close: () => chainHandlers.close(),
          streams: () => chainHandlers.streams(),
        },
        followService({
          chain: () => ctx.chain.chain,
          stored: storedBlocks(ctx.db),
          snapshots: snapshotSource(ctx.db, CHAIN_SNAPSHOT_CODE),
          limits: { stallMs: ctx.config.streamStallMs },
        }),
      ],
    });
    const face = await started.catch(async (err: unknown) => {
      await intake?.close();
      throw err;
    });
    // A full node: its following is NOT_SERVING while halted on bad leader data; reads stay SERVING.
    const unwatch = follower?.halts.onChange((halted) => face.setHealth(FOLLOWING_HEALTH, halted === undefined));
    if (follower?.halts.current) face.setHealth(FOLLOWING_HEALTH, false);
    return {
      name: 'grpc',
      address: face.address,
      stopAccepting: () => face.stopAccepting(),
      close: async () => {
        unwatch?.();
        await face.close();
        await intake?.close();
      },
      streamClients: () => face.streamClients(),
    };
  },
};

export const restFace: FaceSpec = {
  name: 'rest',
  async start(ctx) {
    const face = await startRestFace(ctx.sequencer, ctx.config.restAddr, {
      logger: ctx.logger,
      registry: ctx.metrics.registry,
    });
    return {
      name: 'rest',
      address: face.address,
      stopAccepting: () => face.stopAccepting(),
      close: () => face.close(),
    };
  },
};

/**
 * The order book API (spec/2) on --dex-addr, on the node's order book runtime: behind gateway
 * processes (forked in prepare, so they boot while the node starts), or in this process with
 * `--gateways 0` and on a full node that relays writes (the relay hook lives in the
 * in-process handler).
 */
export const dexFace: FaceSpec = {
  name: 'dex',
  start(ctx) {
    return dexFace.prepare!(ctx.config, ctx.logger).start(ctx);
  },
  prepare(config, logger) {
    const relays = config.follow !== undefined && config.followDex !== undefined;
    let onClientGone = (): void => undefined;
    const gateways =
      config.gateways > 0 && !relays
        ? prepareGatewayFace({
            gateways: config.gateways,
            maxInflight: Math.max(1, Math.floor(Math.min(config.queueCapacity, config.maxPending) / config.gateways)),
            logLevel: config.logLevel,
            addr: config.dexAddr,
            dbPath: config.dbPath,
            logger,
            onClientGone: () => onClientGone(),
            ...(config.grpcEntryAddr !== undefined ? { grpcEntryAddr: config.grpcEntryAddr } : {}),
          })
        : undefined;
    return {
      start(ctx) {
        onClientGone = () => ctx.metrics.requestAborted('dex');
        return startDexFace(ctx, gateways);
      },
      abort: async () => gateways?.abort(),
    };
  },
};

async function startDexFace(ctx: NodeContext, gateways: PreparedGatewayFace | undefined): Promise<RunningFace> {
  const forwarder =
    ctx.config.follow !== undefined && ctx.config.followDex !== undefined
      ? dexForwarder(ctx.config.followDex, 16 * 1024)
      : undefined;
  try {
    const deps: DexDeps = {
      ...(forwarder ? { follow: forwarder } : {}),
      db: ctx.db,
      pool: ctx.pool,
      sequencer: ctx.sequencer,
      logger: ctx.logger,
      dbPath: ctx.config.dbPath,
      addr: ctx.config.dexAddr,
      book: ctx.book,
      onClientGone: () => ctx.metrics.requestAborted('dex'),
    };
    const dex = gateways ? await gateways.start(deps, submitTxAnswer(ctx.chain.chain)) : await startDex(deps);
    const entry = 'grpcEntryAddress' in dex ? dex.grpcEntryAddress : undefined;
    return {
      name: 'dex',
      address: dex.address,
      ...(entry !== undefined ? { more: { 'grpc-entry': entry } } : {}),
      stopAccepting: () => dex.stopAccepting(),
      close: async () => {
        forwarder?.close();
        await dex.close();
      },
    };
  } catch (err) {
    forwarder?.close();
    await gateways?.abort();
    throw err;
  }
}

/** The chain explorer (spec/3) on --rpc-addr: REST, WS /ws/blocks, the live channels at WS /ws, the hooks' routes, the chain consumers. */
export const rpcFace: FaceSpec = {
  name: 'rpc',
  async start(ctx) {
    const runtime = ctx.chain;
    const consumers: Array<{ close(): Promise<void> }> = [];
    let face: Awaited<ReturnType<typeof startRpcFace>> | undefined;
    try {
      face = await startRpcFace({
        chain: runtime.chain,
        state: () => ctx.book.state,
        sequencer: ctx.sequencer,
        addr: ctx.config.rpcAddr,
        logger: ctx.logger,
        hooks: rpcRouteHooks(ctx.config),
        upgrades: [ctx.channels.serve(runtime.chain, ctx.logger)],
        orders: runtime.orders,
      });
      const unregister = registerChainMetrics(ctx.metrics.registry, runtime.chain, face.sockets);
      consumers.push({ close: async () => unregister() });
      for (const c of CHAIN_CONSUMERS) {
        const started = await c.start({
          chain: runtime.chain,
          db: ctx.db,
          config: ctx.config,
          logger: ctx.logger,
          registry: ctx.metrics.registry,
          fail: ctx.fail,
          sequencer: ctx.sequencer,
        });
        if (started) consumers.push(started);
      }
      const running = face;
      return {
        name: 'rpc',
        address: running.address,
        stopAccepting: () => running.stopAccepting(),
        close: async () => {
          for (const c of consumers.reverse())
            await c.close().catch((err: unknown) => ctx.logger.error({ err }, 'chain consumer close failed'));
          await running.close();
        },
      };
    } catch (err) {
      for (const c of consumers) await c.close().catch(() => undefined);
      await face?.close();
      throw err;
    }
  },
};

export function defaultFaces(): FaceSpec[] {
  return [grpcFace, restFace, dexFace, rpcFace];
}
