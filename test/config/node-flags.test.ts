/** `svc node` flags and SVC_* environment variables: defaults, precedence, bad values, help. */
import { expect } from 'chai';
import { DEFAULT_BUSY_ITERATIONS } from '../../src/vdf/constants.js';
import { FLAGS, envName, parseNodeConfig, nodeConfig } from '../../src/config/index.js';

describe('node configuration', () => {
  it('has the documented defaults', () => {
    const c = nodeConfig([]);
    expect(c.grpcAddr).to.deep.equal({ host: '0.0.0.0', port: 9090 });
    expect(c.restAddr).to.deep.equal({ host: '0.0.0.0', port: 8080 });
    expect(c.dexAddr.port).to.equal(8081);
    expect(c.rpcAddr.port).to.equal(8082);
    expect(c.dbPath).to.equal('./rollup_data');
    expect(c.retainTicks).to.equal(1_000_000);
    expect(c.vdfIterations).to.equal(DEFAULT_BUSY_ITERATIONS);
    expect(c.idleTickMs).to.equal(100);
    expect(c.queueCapacity).to.equal(100_000);
    expect(c.logLevel).to.equal('info');
    expect(c.indexerUrl).to.equal(undefined);
    expect(nodeConfig(['--indexer-url', 'http://127.0.0.1:8083/']).indexerUrl).to.equal('http://127.0.0.1:8083');
  });

  it('reads every flag from SVC_* variables, and flags win', () => {
    expect(FLAGS.map((f) => envName(f.flag))).to.include.members([
      'SVC_GRPC_ADDR',
      'SVC_DB_PATH',
      'SVC_QUEUE_CAPACITY',
      'SVC_LOG_LEVEL',
    ]);
    const env = {
      SVC_GRPC_ADDR: '127.0.0.1:1234',
      SVC_RETAIN_TICKS: '50',
      SVC_LOG_LEVEL: 'debug',
      SVC_REST_ADDR: '[::1]:0',
    };
    const c = nodeConfig(['--retain-ticks', '70', '--idle-tick-ms=5'], env);
    expect(c.grpcAddr).to.deep.equal({ host: '127.0.0.1', port: 1234 });
    expect(c.restAddr).to.deep.equal({ host: '::1', port: 0 });
    expect(c.retainTicks).to.equal(70);
    expect(c.idleTickMs).to.equal(5);
    expect(c.logLevel).to.equal('debug');
  });

  const bad: Array<[string[], Record<string, string>, RegExp]> = [
    [['--grpc-addr', 'localhost'], {}, /--grpc-addr.*host:port/],
    [['--rest-addr', '1.2.3.4:70000'], {}, /--rest-addr.*out of range/],
    [['--retain-ticks', '0'], {}, /--retain-ticks.*out of range/],
    [
      ['--retain-ticks', '-5'],
      {},
      /^invalid --retain-ticks: -5 is out of range: expected a whole number from 1 to 100,000,000$/,
    ],
    [['--idle-tick-ms', '-1.5'], {}, /^invalid --idle-tick-ms: -1\.5 is out of range/],
    [['--grpc-adr', '1.2.3.4:1'], {}, /^unknown flag --grpc-adr \(did you mean --grpc-addr\?\)$/],
    [['--db-path'], {}, /^--db-path needs a value$/],
    [['--queue-capacity', '1.5'], {}, /--queue-capacity.*whole number/],
    [['--log-level', 'loud'], {}, /--log-level.*one of/],
    [['--no-such-flag'], {}, /no-such-flag/],
    [['positional'], {}, /positional/i],
    [[], { SVC_VDF_ITERATIONS: 'many' }, /SVC_VDF_ITERATIONS.*whole number/],
    [['--db-path', ''], {}, /--db-path/],
    [['--follow-dex', 'http://127.0.0.1:8081'], {}, /^--follow-dex needs --follow/],
    [['--grpc-entry-addr', '127.0.0.1:9095', '--gateways', '0'], {}, /^--grpc-entry-addr needs --gateways >= 1/],
    [['--grpc-entry-addr', 'nowhere'], {}, /--grpc-entry-addr/],
    [['--follow-from', 'snapshot'], {}, /^--follow-from snapshot needs --follow/],
    [[], { SVC_FOLLOW_FROM: 'snapshot' }, /^--follow-from snapshot needs --follow/],
    [
      ['--follow', '127.0.0.1:9090', '--follow-from', 'later'],
      {},
      /^invalid --follow-from: expected genesis or snapshot/,
    ],
    [
      ['--indexer-url', 'ftp://127.0.0.1:8083'],
      {},
      /^invalid --indexer-url: expected http:\/\/host:port, got 'ftp:\/\/127\.0\.0\.1:8083'/,
    ],
    [[], { SVC_INDEXER_URL: 'not a url' }, /SVC_INDEXER_URL.*expected http:\/\/host:port/],
    [['--node-thread', 'yes'], {}, /^invalid --node-thread: expected on or off, got 'yes'/],
    [[], { SVC_NODE_THREAD: '1' }, /SVC_NODE_THREAD.*expected on or off/],
  ];
  for (const [argv, env, message] of bad) {
    it(`refuses ${JSON.stringify(argv)} ${JSON.stringify(env)} with a clear message`, () => {
      const outcome = parseNodeConfig(argv, env);
      expect(outcome.kind).to.equal('error');
      if (outcome.kind === 'error') expect(outcome.message).to.match(message);
    });
  }

  it('prints help listing every flag and its variable', () => {
    const outcome = parseNodeConfig(['--help']);
    expect(outcome.kind).to.equal('help');
    if (outcome.kind === 'help')
      for (const f of FLAGS) expect(outcome.text).to.contain(`--${f.flag}`).and.contain(envName(f.flag));
  });
});
