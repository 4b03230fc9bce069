/**
 * The one flag table (src/config/flags.ts) as a table: every `svc node` and `svc indexer`
 * flag has one row, a name and a key no other row uses, help text, and a default its own
 * parser accepts (the value a node gets when nothing is given); its environment variable is
 * SVC_ and the flag's name. A bad value, from a flag or a variable, is refused with a message
 * naming where it came from; a mistyped flag gets the closest known name. The values each
 * flag takes are checked in node-flags.test.ts and mq-flags.test.ts.
 */
import { expect } from 'chai';
import { closest, envName, FLAGS, helpText, nodeConfig, parseNodeConfig } from '../../src/config/index.js';
import { INDEXER_FLAGS } from '../../src/config/flags.js';

describe('config: the flag table', () => {
  for (const [name, table] of [
    ['svc node', FLAGS],
    ['svc indexer', INDEXER_FLAGS],
  ] as const) {
    it(`${name}: one row per flag and per key, each with help text`, () => {
      const flags = table.map((f) => f.flag);
      const keys = table.map((f) => f.key);
      expect(new Set(flags).size, 'flag names').to.equal(flags.length);
      expect(new Set(keys).size, 'config keys').to.equal(keys.length);
      for (const f of table) {
        expect(f.flag, f.flag).to.match(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
        expect(f.help.trim(), `help of --${f.flag}`).to.not.equal('');
      }
    });
  }

  it('each default is accepted by its own parser and is what a node gets with nothing given', () => {
    const config = nodeConfig([]);
    for (const f of FLAGS) expect(config[f.key], `--${f.flag}`).to.deep.equal(f.parse(f.defaultValue));
  });

  it('names each environment variable SVC_ and the flag in capitals, dashes as underscores', () => {
    expect(envName('grpc-addr')).to.equal('SVC_GRPC_ADDR');
    expect(envName('log-level')).to.equal('SVC_LOG_LEVEL');
    const help = helpText();
    for (const f of FLAGS)
      expect(help, f.flag)
        .to.contain(`--${f.flag} <value>`)
        .and.contain(`env ${envName(f.flag)}`);
  });

  it('refuses a bad value saying whether the flag or the variable gave it', () => {
    const fromFlag = parseNodeConfig(['--log-level', 'loud']);
    expect(fromFlag.kind).to.equal('error');
    if (fromFlag.kind === 'error') expect(fromFlag.message).to.match(/^invalid --log-level: /);
    const fromEnv = parseNodeConfig([], { SVC_LOG_LEVEL: 'loud' });
    expect(fromEnv.kind).to.equal('error');
    if (fromEnv.kind === 'error') expect(fromEnv.message).to.match(/^invalid SVC_LOG_LEVEL: /);
  });

  it('suggests the closest flag for a typo, and nothing for a name far from every flag', () => {
    const wrong = parseNodeConfig(['--grpc-adr', '127.0.0.1:1']);
    expect(wrong.kind).to.equal('error');
    if (wrong.kind === 'error') expect(wrong.message).to.equal('unknown flag --grpc-adr (did you mean --grpc-addr?)');
    const names = FLAGS.map((f) => f.flag);
    expect(closest('rest-adr', names)).to.equal('rest-addr');
    expect(closest('frobnicate', names)).to.equal(undefined);
  });
});
