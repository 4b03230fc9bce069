/** `svc node` through the CLI dispatcher: --help exits 0 with the flags, a bad flag exits 2 with a clear message. */
import { expect } from 'chai';
import { main } from '../../src/cli/main.js';

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (m: string) => out.push(m);
  console.error = (m: string) => err.push(m);
  try {
    return { code: await fn(), out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('svc node command', () => {
  it('is listed by svc --help', async () => {
    const r = await capture(() => main(['--help']));
    expect(r.out).to.match(/^\s+node\s+run the node/m);
  });
  it('prints its flags for --help and exits 0', async () => {
    const r = await capture(() => main(['node', '--help']));
    expect(r.code).to.equal(0);
    expect(r.out).to.contain('--grpc-addr').and.contain('SVC_QUEUE_CAPACITY');
  });
  it('exits 2 with a message naming the bad flag', async () => {
    const r = await capture(() => main(['node', '--retain-ticks', 'lots']));
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/invalid --retain-ticks: expected a whole number/);
  });
});
