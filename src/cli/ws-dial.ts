/**
 * The SDK channel client's socket in Node (Node 20 has no global WebSocket): a dial over
 * the `ws` package. A socket that never opened closes with 1006 and no reason; the reason
 * given is then the connection error (e.g. `connect ECONNREFUSED 127.0.0.1:8082`), so the
 * command can say why it could not reach the node.
 */
import WebSocket from 'ws';
import type { ChannelDial } from '../sdk/index.js';

export const wsDial: ChannelDial = (url, events) => {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let failure = '';
  ws.on('open', () => events.open());
  ws.on('message', (data: Buffer) => events.message(data.toString()));
  ws.on('error', (err: Error) => (failure = err.message));
  ws.on('close', (code: number, reason: Buffer) => events.close(code, reason.toString() || failure));
  return { send: (text) => ws.send(text), close: () => ws.terminate() };
};
