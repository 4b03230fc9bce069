/**
 * Child process (child_process.fork) for bench:slow-consumers and bench:paused-streamtx:
 * opens `count` StreamTicks calls (or ChainService StreamTx calls from `startTick` as their
 * from_sequence, with `method: 'StreamTx'`), each on its own connection, that are either paused from the start (`paused`: a
 * 'data' listener and pause(), so grpc-js stops asking HTTP/2 for more once its 16-message
 * buffer is full and flow control stops the node's writes) or read every tick (`reading`).
 * (A call with no 'data' listener at all is not paused: grpc-js then keeps reading from HTTP/2
 * into the client's memory.) Reports `{ ready }` once every stream is open, then holds them
 * until the parent sends 'stop', and reports how many ticks the streams received.
 * `fast`: no 'data' listener at all, so grpc-js keeps reading from HTTP/2 as fast as the node
 * sends (a reader that takes everything; bench:readers), and `received` stays 0.
 */
import * as grpc from '@grpc/grpc-js';

export interface StreamClientsJob {
  address: string;
  count: number;
  startTick: number; // StreamTicks start_tick, or StreamTx from_sequence
  mode: 'paused' | 'reading' | 'fast';
  method?: 'StreamTicks' | 'StreamTx'; // default StreamTicks
}

export interface StreamClientsResult {
  opened: number;
  received: number; // messages the streams received (paused ones: up to grpc-js's 16-message buffer)
  errors: string[]; // distinct status messages of streams that ended
  cpuMs: number; // CPU this client process took while holding the streams (user + system)
}

const identity = (b: Buffer) => b;

/** Field 1 as a varint: StreamTicksRequest.start_tick or StreamTxRequest.from_sequence (0: live). */
function requestBody(n: number): Buffer {
  if (n === 0) return Buffer.alloc(0);
  const bytes = [0x08];
  let v = n;
  while (v >= 0x80) {
    bytes.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

async function run(job: StreamClientsJob): Promise<void> {
  const clients: grpc.Client[] = [];
  const calls: grpc.ClientReadableStream<Buffer>[] = [];
  const errors = new Set<string>();
  let received = 0;
  for (let i = 0; i < job.count; i++) {
    const options: grpc.ChannelOptions = { 'grpc.use_local_subchannel_pool': 1, 'grpc.max_receive_message_length': -1 };
    if (job.mode !== 'paused') options['grpc-node.flow_control_window'] = 16 * 1024 * 1024;
    const client = new grpc.Client(job.address, grpc.credentials.createInsecure(), options);
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(Date.now() + 10_000, (e) => (e ? reject(e) : resolve())),
    );
    const method = job.method ?? 'StreamTicks';
    const path =
      method === 'StreamTx' ? '/svc.chain.v1.ChainService/StreamTx' : '/svc.sequencer.v1.SequencerService/StreamTicks';
    const call = client.makeServerStreamRequest(path, identity, identity, requestBody(job.startTick));
    const openedAt = performance.now();
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpc.status.CANCELLED)
        errors.add(
          `${grpc.status[e.code]}: ${e.details} (stream ${i}, after ${Math.round((performance.now() - openedAt) / 1000)} s)`,
        );
    });
    if (job.mode !== 'fast') call.on('data', () => received++);
    if (job.mode === 'paused') call.pause();
    clients.push(client);
    calls.push(call);
  }
  const cpu0 = process.cpuUsage();
  process.send!({ ready: true });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const cpu = process.cpuUsage(cpu0);
  for (const c of calls) c.cancel();
  for (const c of clients) c.close();
  const result: StreamClientsResult = {
    opened: calls.length,
    received,
    errors: [...errors],
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.send!({ result }, () => process.exit(0));
}

process.once('message', (job: StreamClientsJob) => {
  run(job).catch((err: Error) => process.send!({ error: err.message }, () => process.exit(1)));
});
