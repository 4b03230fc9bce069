/**
 * Where the package's .proto files are and how every svc proto is loaded (proto-loader):
 * the one set of loader options, so each face decodes the small query messages alike
 * (snake_case keys, u64 as decimal strings). Each face names its own proto file and service.
 */
import type * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';

/** Absolute path of the package's proto/ directory (works from dist/src/wire). */
export const PROTO_DIR = fileURLToPath(new URL('../../../proto/', import.meta.url));

/** Options used everywhere a proto is loaded: snake_case keys, u64 as decimal strings. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};
