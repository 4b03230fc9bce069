/**
 * Entry point of one gateway process (a node:cluster worker forked by cluster.ts; not run
 * by hand). Its settings come in the SVC_GATEWAY environment variable (GatewayProcessConfig
 * as JSON). Once the primary says GO (interface.ts) it loads the node key (receipts),
 * connects to the sequencer process's channel, and listens on the order book port, which
 * node:cluster shares between the gateways: each gateway accepts connections itself from
 * the one socket (cluster.ts), with the listen backlog it is given.
 *
 * It exits when the channel closes (the sequencer process stopped or died) and, on SIGTERM
 * (sent by the node process when it stops), once it stopped accepting and answered the
 * requests it had taken. SIGINT is left to the node process.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { createLogger } from '../../../log/index.js';
import { loadOrCreateNodeKey } from '../../index.js';
import { SequencerChannel } from './channel.js';
import { createGatewayHandler } from './http.js';
import { startGrpcEntry } from './grpc-entry.js';
import {
  BOOTED,
  CLIENT_GONE,
  GO,
  GRPC_LISTENING,
  LISTEN_FAILED,
  type GatewayProcessConfig,
  type GrpcListening,
  type ListenFailed,
} from './interface.js';

/** Says BOOTED, then resolves on the primary's GO (at once without an IPC channel: run by hand). */
function released(): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) return Promise.resolve();
  return new Promise((resolve) => {
    const onMessage = (m: unknown): void => {
      if (m !== GO) return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    send(BOOTED);
  });
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.env.SVC_GATEWAY ?? '') as GatewayProcessConfig;
  const logger = createLogger(cfg.logLevel).child({ gateway: process.pid });
  // Booted (modules loaded) while the node process starts; wait until its channel is up.
  await released();
  const key = await loadOrCreateNodeKey(cfg.dbPath);
  const channel = await SequencerChannel.connect(cfg.channelPath, cfg.maxInflight);
  const handler = createGatewayHandler({
    channel,
    key,
    upstreamSocket: cfg.httpPath,
    bodyLimit: cfg.bodyLimit,
    logger,
    onClientGone: () => process.send?.(CLIENT_GONE),
  });
  const server = createServer(handler);
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  let closeEntry: (() => Promise<void>) | undefined;
  const exitWhenIdle = (): void => {
    if (channel.inflight === 0) process.exit(0);
    else setTimeout(exitWhenIdle, 20);
  };
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    void closeEntry?.();
    exitWhenIdle();
  };
  channel.onClose(() => {
    // Waiting requests were answered 503 by the channel; let those answers go out.
    server.close();
    setTimeout(() => process.exit(0), 50);
  });
  process.on('SIGTERM', stop);
  // Ctrl-C reaches the whole process group: the node process handles it and stops the
  // gateways in its own order (SIGTERM), so a gateway does not leave on its own first.
  process.on('SIGINT', () => undefined);
  const listenFailed = (err: NodeJS.ErrnoException): void => {
    // Cannot listen (the port is taken...): tell the node process why, so it says so.
    const m: ListenFailed = { type: LISTEN_FAILED, message: err.message, ...(err.code ? { code: err.code } : {}) };
    if (process.send) process.send(m, () => process.exit(1));
    else process.exit(1);
  };
  server.once('error', listenFailed);
  server.listen({ port: cfg.port, host: cfg.host, backlog: cfg.backlog }, () => {
    server.removeAllListeners('error');
    const at = cfg.grpcEntry;
    if (at === undefined) return;
    // After the order book port: node:cluster reports this process's first 'listening' as that port's.
    startGrpcEntry(at, channel, logger).then((entry) => {
      closeEntry = entry.close;
      const m: GrpcListening = { type: GRPC_LISTENING, port: entry.port };
      process.send?.(m);
    }, listenFailed);
  });
}

if (cluster.isWorker || process.env.SVC_GATEWAY !== undefined) {
  main().catch((err: unknown) => {
    process.stderr.write(`svc gateway ${process.pid}: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
