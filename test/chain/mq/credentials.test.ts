/**
 * --mq-url credentials become client options (src/chain/mq/credentials.ts): the servers
 * lose their user information, user:password becomes user/pass, a user part alone a token.
 */
import { expect } from 'chai';
import { natsServerOptions } from '../../../src/chain/mq/credentials.js';

describe('mq: credentials in --mq-url', () => {
  it('takes user:password out of every server URL, percent-decoded', () => {
    expect(
      natsServerOptions('nats://svc:p%40ss%3Aw0rd@10.0.0.1:4222, nats://svc:p%40ss%3Aw0rd@10.0.0.2:4222'),
    ).to.deep.equal({
      servers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'],
      user: 'svc',
      pass: 'p@ss:w0rd',
    });
  });
  it('a user part alone is a token; no user part, no credentials', () => {
    expect(natsServerOptions('tls://s3cret@nats.example:4222')).to.deep.equal({
      servers: ['tls://nats.example:4222'],
      token: 's3cret',
    });
    expect(natsServerOptions('nats://127.0.0.1:4222')).to.deep.equal({ servers: ['nats://127.0.0.1:4222'] });
  });
  it('refuses servers with different credentials (the client has one set)', () => {
    expect(() => natsServerOptions('nats://a:1@h1:4222,nats://b:2@h2:4222')).to.throw(/same ones/);
  });
});
