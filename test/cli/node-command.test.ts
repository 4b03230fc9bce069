/** `svc node` through the CLI dispatcher: --help exits 0 with the flags, a bad flag exits 2 with a clear message. */
import { expect } from 'chai';
import { svc } from './support.js';

describe('svc node command', () => {
  it('prints its flags for --help and exits 0', async () => {
    const r = await svc('node', '--help');
    expect(r.code).to.equal(0);
    expect(r.out).to.contain('--grpc-addr').and.contain('SVC_QUEUE_CAPACITY');
  });
  it('exits 2 with a message naming the bad flag', async () => {
    const r = await svc('node', '--retain-ticks', 'lots');
    expect(r.code).to.equal(2);
    expect(r.err).to.match(/invalid --retain-ticks: expected a whole number from 1 to 100,000,000, got 'lots'/);
  });
});
