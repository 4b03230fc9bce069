/**
 * The REST face: the Koa app on a node:http server bound to one address, with a
 * two-phase shutdown like the gRPC face: stopAccepting() turns /api/v1/health to 503 so
 * load balancers drain; close() stops listening and ends idle, then all, connections.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { answerClientErrors, formatHostPort } from '../../../wire/index.js';
import type { HostPort as ListenAddress } from '../../../wire/index.js';
import type { Sequencer } from '../../index.js';
import { createRestApp } from './app.js';

export interface RestFace {
  address: string;
  port: number;
  stopAccepting(): void;
  close(): Promise<void>;
}

export interface RestFaceOptions {
  logger: Logger;
  registry?: Registry;
  shutdownGraceMs?: number; // default 5000
}

export async function startRestFace(
  sequencer: Sequencer,
  addr: ListenAddress,
  options: RestFaceOptions,
): Promise<RestFace> {
  let stopping = false;
  const app = createRestApp({
    sequencer,
    logger: options.logger,
    registry: options.registry,
    isStopping: () => stopping,
  });
  const server: Server = createServer(app.callback());
  answerClientErrors(server); // 431 reaches a client still sending a long URL
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(addr.port, addr.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const stopAccepting = () => {
    stopping = true;
  };
  return {
    address: formatHostPort({ host: addr.host, port }),
    port,
    stopAccepting,
    async close() {
      stopAccepting();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 5000);
      await closed;
      clearTimeout(timer);
    },
  };
}
