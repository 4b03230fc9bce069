/**
 * Child process: a no-op grpc-js server of the same proto (standard proto-loader
 * codecs, no sequencing), the baseline the ingest benchmark compares against.
 * Prints `listening noop <addr>` and answers every submission with dummy values.
 */
import * as grpc from '@grpc/grpc-js';
import { loadSequencerPackage, SEQUENCER_SERVICE } from '../../src/sequencer/api/client/index.js';
import { MAX_RECEIVE_MESSAGE_BYTES } from '../../src/sequencer/api/limits.js';

const service = loadSequencerPackage()[SEQUENCER_SERVICE] as grpc.ServiceDefinition;
const server = new grpc.Server({ 'grpc.max_receive_message_length': MAX_RECEIVE_MESSAGE_BYTES });
let seq = 0;
const answer = () => ({ sequence_number: ++seq, expected_tick: 1, tx_hash: '00000000' });
server.addService(service, {
  SubmitTransaction: (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) =>
    cb(null, answer()),
  SubmitBatch: (call: grpc.ServerUnaryCall<{ transactions: unknown[] }, unknown>, cb: grpc.sendUnaryData<unknown>) =>
    cb(null, { responses: call.request.transactions.map(answer) }),
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`listening noop 127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.forceShutdown());
