/**
 * Loads proto/svc/sequencer/v1/sequencer.proto at run time from the package's proto/
 * directory (proto-loader), for the service definition, request decoding of the small
 * query messages, server reflection and test clients.
 */
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';

/** Absolute path of the package's proto/ directory (works from dist/src/rpc). */
export const PROTO_DIR = fileURLToPath(new URL('../../../proto/', import.meta.url));
export const SEQUENCER_PROTO = 'svc/sequencer/v1/sequencer.proto';
export const SEQUENCER_SERVICE = 'svc.sequencer.v1.SequencerService';

/** Options used everywhere the proto is loaded: snake_case keys, u64 as decimal strings. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

let cached: protoLoader.PackageDefinition | undefined;

export function loadSequencerPackage(): protoLoader.PackageDefinition {
  cached ??= protoLoader.loadSync(SEQUENCER_PROTO, LOADER_OPTIONS);
  return cached;
}

export function sequencerServiceDefinition(): protoLoader.ServiceDefinition {
  return loadSequencerPackage()[SEQUENCER_SERVICE] as protoLoader.ServiceDefinition;
}
