/** `svc` itself: the command list, unknown commands (with a suggestion), exit codes. */
import { expect } from 'chai';
import { svc } from './support.js';

describe('svc CLI dispatcher', () => {
  it('lists every command with its one-line summary', async () => {
    const r = await svc('--help');
    expect(r.code).to.equal(0);
    for (const name of ['node', 'status', 'tx', 'tick', 'ticks', 'verify', 'keygen', 'market', 'order', 'receipt'])
      expect(r.out).to.match(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(r.out).to.match(/^\s+node\s+run the node/m);
  });

  it('refuses an unknown command with exit code 2, suggesting the closest', async () => {
    const r = await svc('stauts');
    expect(r.code).to.equal(2);
    expect(r.err).to.contain("svc: unknown command 'stauts' (did you mean 'status'?)");
    expect((await svc('no-such-command')).err).to.contain("unknown command 'no-such-command'\n");
  });

  it('with no command prints the usage and exits 2; a group without its subcommand too', async () => {
    expect((await svc()).code).to.equal(2);
    const r = await svc('tx');
    expect(r.code).to.equal(2);
    expect(r.out).to.match(/^usage: svc tx <send\|get\|prove>/);
    expect((await svc('tx', 'sned')).err).to.contain("svc tx: unknown command 'sned'");
  });
});
