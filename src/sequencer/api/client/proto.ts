/**
 * Loads proto/svc/sequencer/v1/sequencer.proto at run time from the package's proto/
 * directory (proto-loader, with the options every svc proto uses), for the service
 * definition, request decoding of the small query messages, server reflection and test clients.
 */
import * as protoLoader from '@grpc/proto-loader';
import { LOADER_OPTIONS } from '../../../wire/index.js';

export const SEQUENCER_PROTO = 'svc/sequencer/v1/sequencer.proto';
export const SEQUENCER_SERVICE = 'svc.sequencer.v1.SequencerService';

let cached: protoLoader.PackageDefinition | undefined;

export function loadSequencerPackage(): protoLoader.PackageDefinition {
  cached ??= protoLoader.loadSync(SEQUENCER_PROTO, LOADER_OPTIONS);
  return cached;
}

export function sequencerServiceDefinition(): protoLoader.ServiceDefinition {
  return loadSequencerPackage()[SEQUENCER_SERVICE] as protoLoader.ServiceDefinition;
}
