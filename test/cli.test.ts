import { expect } from 'chai';
import { main } from '../src/cli/main.js';

describe('svc CLI dispatcher', () => {
  it('refuses an unknown command with exit code 2', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (msg: string) => errors.push(msg);
    try {
      expect(await main(['no-such-command'])).to.equal(2);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).to.contain("unknown command 'no-such-command'");
  });
});
