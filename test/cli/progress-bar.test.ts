/**
 * The CLI's progress output (src/cli/progress-bar.ts): on a terminal one line redrawn in place
 * with percent, counts, rate and ETA; off a terminal plain lines, a few seconds apart.
 */
import { expect } from 'chai';
import { createProgressBar, progressLine, renderBar } from '../../src/cli/progress-bar.js';

describe('svc progress bar', () => {
  it('renders percent, counts, rate and ETA within the terminal width', () => {
    const bar = renderBar('verifying', 'ticks', 5200, 10000, 4000, 100);
    expect(bar).to.equal(
      'verifying [##################·················]  52%  5,200/10,000 ticks  1,300 ticks/s  ETA 3.7 s',
    );
    expect(bar.length).to.be.at.most(100);
    expect(renderBar('verifying', 'ticks', 10000, 10000, 8000)).to.match(
      /\[#+\] 100% {2}10,000\/10,000 ticks {2}1,250 ticks\/s$/,
    );
    expect(progressLine('verifying', 'ticks', 250, 1000, 500)).to.equal(
      'verifying: 250 of 1,000 ticks (25%), 500 ticks/s, ETA 1.5 s',
    );
  });

  it('redraws in place on a terminal, at most ten times a second, and clears at the end', () => {
    const writes: string[] = [];
    let t = 0;
    const bar = createProgressBar({
      out: { write: (s: string) => writes.push(s), isTTY: true, columns: 120 },
      label: 'verifying',
      unit: 'ticks',
      total: 100,
      now: () => t,
    });
    t = 50;
    bar.update(10);
    t = 80;
    bar.update(20); // too soon: skipped
    t = 200;
    bar.update(40);
    bar.finish();
    expect(writes).to.have.length(3);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the bar's escape sequence is what it checks
    expect(writes[0]).to.match(/^\rverifying \[.*\] {2}10% {2}10\/100 ticks .*\x1b\[K$/);
    expect(writes[1]).to.contain(' 40% ');
    expect(writes[2]).to.equal('\r\x1b[K');
  });

  it('writes plain lines off a terminal, every lineEveryMs', () => {
    const writes: string[] = [];
    let t = 0;
    const bar = createProgressBar({
      out: { write: (s: string) => writes.push(s), isTTY: false },
      label: 'verifying',
      unit: 'ticks',
      total: 100,
      lineEveryMs: 1000,
      now: () => t,
    });
    for (t = 100; t <= 2500; t += 100) bar.update(t / 100);
    bar.finish();
    expect(writes).to.deep.equal([
      'verifying: 1 of 100 ticks (1%), 10 ticks/s, ETA 9.9 s\n',
      'verifying: 11 of 100 ticks (11%), 10 ticks/s, ETA 8.9 s\n',
      'verifying: 21 of 100 ticks (21%), 10 ticks/s, ETA 7.9 s\n',
    ]);
  });
});
