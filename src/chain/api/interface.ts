/**
 * The hooks of the chain's faces: routes and WebSockets other parts of the node add to the
 * rpc port. The chain's records and reader are in core/interface.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type Router from '@koa/router';
import type { ChainReader } from '../core/index.js';

/**
 * Adds routes to the rpc port's Koa router (the explorer page at `/` and its assets, say).
 * Called once when the rpc face starts, before the explorer's own routes are mounted, so
 * it must not claim the explorer's paths (/status, /blocks..., /transactions/..., /events,
 * /orders/user/..., /openapi.json, /ws/blocks).
 */
export type RpcRouteHook = (router: Router, chain: ChainReader) => void;

/**
 * Another WebSocket on the rpc port (the live channels at /ws): `upgrade` takes the upgrade
 * requests of its own path (returns true) and leaves the others untouched (false), which
 * then go to WS /ws/blocks; `close` closes its sockets (1001) when the face closes.
 */
export interface RpcUpgradeRoute {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): void;
}
