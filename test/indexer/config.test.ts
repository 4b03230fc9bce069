/**
 * `svc indexer`'s flags (the flag table's INDEXER_FLAGS) and its keyset cursors: defaults,
 * environment variables under flags, clear errors for a missing or wrong database URL and
 * for names NATS would refuse; a cursor decodes only from the exact text it encodes to.
 */
import { expect } from 'chai';
import { parseIndexerConfig } from '../../src/config/index.js';
import { INDEXER_FLAGS, envName } from '../../src/config/flags.js';
import { decodeCursor, encodeCursor } from '../../src/indexer/cursor.js';

describe('indexer: flags and cursors', () => {
  it('reads flags over SVC_* variables over defaults', () => {
    const out = parseIndexerConfig(['--pg-url', 'postgres://a@h:5432/db', '--indexer-batch', '50'], {
      SVC_MQ_URL: 'nats://127.0.0.1:4222',
      SVC_INDEXER_BATCH: '7',
    });
    expect(out.kind).to.equal('config');
    if (out.kind !== 'config') return;
    expect(out.config).to.deep.include({
      pgUrl: 'postgres://a@h:5432/db',
      mqUrl: 'nats://127.0.0.1:4222',
      mqStream: 'SVC',
      indexerConsumer: 'svc-indexer',
      indexerBatch: 50,
      logLevel: 'info',
    });
    expect(out.config.indexerAddr).to.deep.equal({ host: '0.0.0.0', port: 8083 });
  });

  it('says what is wrong', () => {
    const error = (args: string[]) => {
      const out = parseIndexerConfig(args, {});
      return out.kind === 'error' ? out.message : '';
    };
    expect(error([])).to.match(/--pg-url: is required/);
    expect(error(['--pg-url', 'mysql://x'])).to.match(/expected a postgres:\/\/ URL/);
    expect(error(['--pg-url', 'postgres://h/db', '--mq-stream', 'a.b'])).to.match(/invalid --mq-stream/);
    expect(error(['--pg-url', 'postgres://h/db', '--indexer-batch', '0'])).to.match(/out of range/);
    expect(error(['--pg-url', 'postgres://h/db', '--indexr-addr', 'x'])).to.match(/did you mean --indexer-addr/);
    const help = parseIndexerConfig(['--help'], {});
    expect(help.kind).to.equal('help');
    if (help.kind === 'help')
      for (const f of INDEXER_FLAGS) expect(help.text).to.contain(`--${f.flag}`).and.contain(envName(f.flag));
  });

  it('decodes a cursor only from the text it encodes to', () => {
    const c = encodeCursor([5613522255872n, 17]);
    expect(decodeCursor(c, 2)).to.deep.equal([5613522255872n, 17n]);
    expect(decodeCursor(c, 1)).to.be.a('string');
    for (const bad of [
      '',
      '!!',
      Buffer.from('01:2').toString('base64url'),
      Buffer.from('1:x').toString('base64url'),
      `${c}=`,
      Buffer.from('18446744073709551616').toString('base64url'),
    ]) {
      expect(decodeCursor(bad, bad.includes('MTg') ? 1 : 2), bad).to.match(/cursor is not one this indexer gave/);
    }
  });
});
