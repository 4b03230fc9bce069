/**
 * Which errors only say a client went away (src/log: isClientDisconnect), so the faces log
 * them at debug and never at error: the socket codes of a reset or a close mid-request or
 * mid-response, Node's HTTP parser errors (HPE_*), and the messages Node gives those cases
 * without a code. Anything else, and anything that is not an error object, is the node's.
 */
import { expect } from 'chai';
import { isClientDisconnect } from '../../src/log/index.js';

describe('log: client disconnects', () => {
  it('knows a client going away by code or by message', () => {
    for (const code of ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED'])
      expect(isClientDisconnect(Object.assign(new Error('x'), { code })), code).to.equal(true);
    expect(isClientDisconnect(Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }))).to.equal(true);
    for (const message of ['aborted', 'Parse Error', 'socket hang up'])
      expect(isClientDisconnect(new Error(message)), message).to.equal(true);
  });

  it('leaves every other error to the node', () => {
    expect(isClientDisconnect(Object.assign(new Error('disk'), { code: 'ENOSPC' }))).to.equal(false);
    expect(isClientDisconnect(new Error('socket hang up later'))).to.equal(false);
    expect(isClientDisconnect(new TypeError('x is undefined'))).to.equal(false);
    for (const notAnError of [undefined, null, 'ECONNRESET', 42])
      expect(isClientDisconnect(notAnError)).to.equal(false);
  });
});
