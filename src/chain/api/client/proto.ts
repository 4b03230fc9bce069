/**
 * Loads proto/svc/chain/v1/chain.proto (proto-loader, the options every svc proto uses),
 * for the service definition, request decoding, server reflection and test clients.
 */
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS } from '../../../wire/index.js';

export const CHAIN_PROTO = 'svc/chain/v1/chain.proto';
export const CHAIN_SERVICE = 'svc.chain.v1.ChainService';

let cached: protoLoader.PackageDefinition | undefined;

export function loadChainPackage(): protoLoader.PackageDefinition {
  cached ??= protoLoader.loadSync(CHAIN_PROTO, LOADER_OPTIONS);
  return cached;
}

export function chainServiceDefinition(): protoLoader.ServiceDefinition {
  return loadChainPackage()[CHAIN_SERVICE] as protoLoader.ServiceDefinition;
}
