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

describe('svc --help', () => {
  it('lists every command with its one-line summary', async () => {
    const out: string[] = [];
    const original = console.log;
    console.log = (msg: string) => out.push(msg);
    try {
      expect(await main(['--help'])).to.equal(0);
    } finally {
      console.log = original;
    }
    const text = out.join('\n');
    for (const name of ['node', 'keygen', 'market', 'order', 'receipt']) expect(text).to.match(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(text).to.contain('run the node');
  });
});
