/**
 * The CLI's side of the sequencer's gRPC client (src/sequencer/api/client): the --grpc-url
 * option (else SVC_GRPC_URL, else 127.0.0.1:9090), and an address that does not parse as
 * a usage error (exit code 2).
 */
import { grpcTarget as parseTarget, NodeClient } from '../sequencer/api/client/index.js';
import { UsageError, type OptionSpec } from './options.js';

export {
  explain,
  NodeClient,
  type ItemError,
  type WireOrdered,
  type WireStatus,
  type WireSubmitResponse,
  type WireTick,
  type WireTransaction,
} from '../sequencer/api/client/index.js';

export const DEFAULT_GRPC_URL = '127.0.0.1:9090';

export const GRPC_URL_OPTION: OptionSpec = {
  name: 'grpc-url',
  type: 'string',
  value: 'HOST:PORT',
  help: "the node's gRPC address",
  default: DEFAULT_GRPC_URL,
  env: 'SVC_GRPC_URL',
};

/** --grpc-url as a grpc-js target; a bad one is a UsageError. */
export function grpcTarget(url: string): string {
  try {
    return parseTarget(url);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A client of the node at --grpc-url. */
export function nodeClient(url: string): NodeClient {
  return new NodeClient(grpcTarget(url));
}
