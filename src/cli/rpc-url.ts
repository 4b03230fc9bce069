/**
 * Where the chain commands that talk to the node's rpc port (the chain explorer REST and
 * the channels WebSocket) connect: --rpc-url URL, else SVC_RPC_URL, else
 * http://127.0.0.1:8082 (the node's default --rpc-addr). `http(s)://host:port`, optionally
 * with a path prefix; anything else is a usage error (exit 2).
 */
import { optional, UsageError, type OptionSpec, type Values } from './options.js';

export const DEFAULT_RPC_URL = 'http://127.0.0.1:8082';

export const RPC_URL_OPTION: OptionSpec = {
  name: 'rpc-url',
  type: 'string',
  value: 'URL',
  help: "the node's chain explorer (its --rpc-addr)",
  default: DEFAULT_RPC_URL,
  env: 'SVC_RPC_URL',
};

/** --rpc-url without a trailing slash. */
export function rpcBase(v: Values): string {
  const base = optional(v, 'rpc-url')!.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base)) throw new UsageError('--rpc-url must start with http:// or https://');
  return base;
}

/** The channels socket (WS /ws) behind an rpc base URL: ws:// for http://, wss:// for https://. */
export function channelsUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(`${base}/ws`);
  } catch {
    throw new UsageError(`--rpc-url '${base}' is not a URL`);
  }
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}
