/**
 * A whole node in this process (startNode: the real sequencer and VDF clock, LevelDB in a
 * temp dir, every face on 127.0.0.1 port 0) with short ticks and blocks, plus clients of
 * its faces: the explorer REST, the order book API and gRPC ChainService.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainClient } from '../../../src/chain/api/client/index.js';
import { nodeConfig } from '../../../src/config/index.js';
import { silentLogger } from '../../../src/log/index.js';
import type { ChainRuntime } from '../../../src/chain/runtime.js';
import { startNode, type FaceSpec, type NodeHandle } from '../../../src/node/index.js';

/** A face that only holds the node's chain runtime, to reach it from a test or a bench. */
export function runtimeProbe(): { face: FaceSpec; runtime(): ChainRuntime } {
  let runtime: ChainRuntime | undefined;
  return {
    face: {
      name: 'probe',
      async start(ctx) {
        runtime = ctx.chain;
        return { name: 'probe', address: '-', stopAccepting() {}, close: async () => undefined };
      },
    },
    runtime: () => {
      if (!runtime) throw new Error('the probe face has not started');
      return runtime;
    },
  };
}

export interface ChainNode {
  node: NodeHandle;
  dir: string;
  rpc: string; // http://host:port
  /** The sequencer REST face (/api/v1), http://host:port. */
  rest: string;
  dex: string;
  grpc: string; // host:port
  client: ChainClient;
  get(path: string): Promise<{ status: number; text: string; json: unknown; retryAfter: string | null }>;
  /** Wait until the explorer shows at least `height` blocks. */
  waitForHeight(height: number, timeoutMs?: number): Promise<void>;
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

export async function tempDir(tag: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `svc-chain-${tag}-`));
}

export async function startChainNode(
  options: { dir?: string; args?: string[]; faces?: FaceSpec[] } = {},
): Promise<ChainNode> {
  const dir = options.dir ?? (await tempDir('node'));
  const config = nodeConfig([
    '--grpc-addr',
    '127.0.0.1:0',
    '--rest-addr',
    '127.0.0.1:0',
    '--dex-addr',
    '127.0.0.1:0',
    '--rpc-addr',
    '127.0.0.1:0',
    '--db-path',
    dir,
    '--idle-tick-ms',
    '20',
    '--block-ms',
    '50',
    '--gateways',
    '0',
    ...(options.args ?? []),
  ]);
  const node = await startNode(config, {
    logger: silentLogger(),
    print: () => undefined,
    poolThreads: 1,
    ...(options.faces ? { faces: options.faces } : {}),
  });
  const rpc = `http://${node.addresses.rpc}`;
  const client = new ChainClient(node.addresses.grpc!);
  const get = async (path: string) => {
    const res = await fetch(rpc + path);
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, retryAfter: res.headers.get('retry-after') };
  };
  return {
    node,
    dir,
    rpc,
    rest: `http://${node.addresses.rest}`,
    dex: `http://${node.addresses.dex}`,
    grpc: node.addresses.grpc!,
    client,
    get,
    async waitForHeight(height, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const s = (await get('/status')).json as { block_height: number };
        if (s.block_height >= height) return;
        if (Date.now() > until) throw new Error(`no block ${height} within ${timeoutMs} ms (at ${s.block_height})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close(opts = {}) {
      client.close();
      await node.close();
      if (!opts.keepDir && !options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
