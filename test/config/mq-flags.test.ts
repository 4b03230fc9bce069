/** --mq-url / SVC_MQ_URL: off by default, nats:// URLs (several for a cluster), bad ones named. */
import { expect } from 'chai';
import { nodeConfig, parseNodeConfig } from '../../src/config/index.js';
import { redact } from '../../src/chain/mq/index.js';

describe('chain/mq: --mq-url', () => {
  it('is off unless given, by flag or environment (flag wins)', () => {
    expect(nodeConfig([]).mqUrl).to.equal(undefined);
    expect(nodeConfig([], { SVC_MQ_URL: '' }).mqUrl).to.equal(undefined);
    expect(nodeConfig([], { SVC_MQ_URL: 'nats://127.0.0.1:4222' }).mqUrl).to.equal('nats://127.0.0.1:4222');
    expect(nodeConfig(['--mq-url', 'nats://a:1'], { SVC_MQ_URL: 'nats://b:2' }).mqUrl).to.equal('nats://a:1');
  });

  it('takes nats:// and tls:// servers, with credentials, comma-separated', () => {
    for (const url of [
      'nats://localhost:4222',
      'nats://10.0.0.1',
      'tls://nats.example.com:4443',
      'nats://user:secret@h:4222',
      'nats://a:1,nats://b:2',
    ]) {
      expect(nodeConfig(['--mq-url', url]).mqUrl, url).to.equal(url);
    }
  });

  it('--mq-replicas: 1 unless given, 1 to 5', () => {
    expect(nodeConfig([]).mqReplicas).to.equal(1);
    expect(nodeConfig(['--mq-replicas', '3']).mqReplicas).to.equal(3);
    expect(nodeConfig([], { SVC_MQ_REPLICAS: '5' }).mqReplicas).to.equal(5);
    for (const bad of ['0', '6', 'three', '2.5']) {
      const out = parseNodeConfig(['--mq-replicas', bad]);
      expect(out.kind, bad).to.equal('error');
      expect((out as { message: string }).message).to.match(/invalid --mq-replicas: .*1 to 5/);
    }
  });

  it('names a bad URL and where it came from', () => {
    for (const bad of [
      'localhost:4222',
      'http://h:4222',
      'nats://',
      'nats://h:4222/x',
      'nats://h h',
      'nats://a:1,',
      'nats://h:123456',
    ]) {
      const out = parseNodeConfig(['--mq-url', bad]);
      expect(out.kind, bad).to.equal('error');
      expect((out as { message: string }).message).to.match(/invalid --mq-url: expected nats:\/\/host:port/);
    }
    const env = parseNodeConfig([], { SVC_MQ_URL: 'redis://x' });
    expect((env as { message: string }).message).to.match(/^invalid SVC_MQ_URL/);
  });

  it('keeps passwords out of logs', () => {
    expect(redact('nats://user:secret@h:4222,nats://u2:p2@g:1')).to.equal('nats://***@h:4222,nats://***@g:1');
    expect(redact('nats://h:4222')).to.equal('nats://h:4222');
  });
});
