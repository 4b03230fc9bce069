/**
 * The wire layer every face builds on (the sequencer's gRPC and REST, the chain's faces, the
 * full node's services, the gateways, the order book's HTTP face): the strict protobuf reader
 * and the writer, the proto loader options, the one bigint-safe JSON, host:port text, a gRPC
 * peer's address, and the grpc-js stream helpers (batched writes, the HTTP/2 stream under a
 * call, stream slots, the readers' pace, the answer to requests a node:http server cannot
 * parse, the HTTP/2 bounds of a gRPC server). It imports no other svc folder.
 */
export {
  ProtoReader,
  WireError,
  VARINT,
  LEN,
  expectWireType,
  checkMessage,
  type MessageSchema,
} from './proto-reader.js';
export { ScratchWriter, Writer } from './proto-writer.js';
export { PROTO_DIR, LOADER_OPTIONS } from './proto-loader.js';
export { encodeJson, parseRecordJson } from './json.js';
export { clip, parseIntegerParam, type Parsed } from './query-param.js';
export { parseAddress, parseHostPort, formatHostPort, type HostPort } from './host-port.js';
export { peerAddress } from './peer.js';
export { enableBatchedWrites } from './batched-writes.js';
export { http2StreamClosed, resetHttp2Stream } from './http2-stream.js';
export { ReaderPace, readerPace, DEFAULT_READER_PACE } from './reader-pace.js';
export { StreamSlots, type SlotHolder, type StreamSlotLimits } from './stream-slots.js';
export { answerClientErrors } from './client-errors.js';
export { guardHttp2Server, guardSessions, HTTP2_SERVER_OPTIONS, MAX_CONCURRENT_STREAMS } from './http2-guard.js';
