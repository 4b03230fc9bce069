/**
 * Progress of slow start-up work (src/log/progress.ts): the figures, the wording, that a
 * quick step logs nothing, and the order book replay of a real TickApplier and engine (over
 * the test sequencer double, its stored ticks read slowly) logging ticks replayed of total and a rate.
 */
import { expect } from 'chai';
import { pino, type Logger } from 'pino';
import { TickApplier } from '../../src/dex/index.js';
import { OrderBookEngine } from '../../src/dex/engine/index.js';
import { startProgress, progressFigures, describeProgress } from '../../src/log/progress.js';
import type { Tick } from '../../src/core/types.js';
import { FakeSequencer } from '../support/fake-sequencer.js';

function capture(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = pino(
    { level: 'info' },
    { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
  );
  return { logger, lines };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('start-up progress', () => {
  it('computes percent, rate and time left', () => {
    const f = progressFigures(1200, 5000, 2000);
    expect(f).to.include({ done: 1200, total: 5000, percent: 24, rate: 600 });
    expect(f.etaSeconds).to.be.closeTo(3800 / 600, 1e-9);
    expect(describeProgress(f, 'ticks')).to.equal('1,200 of 5,000 ticks (24%), 600 ticks/s, about 6.3 s left');
    expect(describeProgress(progressFigures(0, undefined, 2500), 'ticks')).to.equal('still running after 2.5 s');
  });

  it('a step that ends within the first second logs nothing', async () => {
    const { logger, lines } = capture();
    const p = startProgress({ logger, what: 'quick', total: 10 });
    p.update(10);
    p.end();
    await sleep(30);
    expect(lines).to.deep.equal([]);
  });

  it('a slow step logs its progress, then a last line', async () => {
    const { logger, lines } = capture();
    let t = 0;
    const p = startProgress({ logger, what: 'replay', total: 100, afterMs: 20, everyMs: 20, now: () => t });
    t = 1000;
    p.update(40);
    for (let i = 0; i < 500 && lines.length === 0; i++) await sleep(10); // timers run late on a loaded machine
    t = 2500;
    p.update(100);
    p.end();
    expect(lines.length).to.be.at.least(2);
    expect(lines[0]!.msg).to.equal('replay: 40 of 100 ticks (40%), 40 ticks/s, about 1.5 s left');
    expect(lines[0]).to.include({ progress: 'replay', done: 40, total: 100, rate: 40, eta_s: 2 });
    expect(lines.at(-1)!.msg).to.equal('replay: done, 100 ticks in 2.5 s');
  });

  it('the order book replay at start-up logs ticks replayed of total and a rate', async function () {
    this.timeout(30_000);
    const sequencer = new FakeSequencer({ tickMs: 0, queueCapacity: 100_000 });
    for (let i = 0; i < 1000; i++) sequencer.closeTick();
    // Stored ticks read slowly, as from a large database: ~1.6 s for 1,000 ticks.
    const read = sequencer.readTicks.bind(sequencer);
    sequencer.readTicks = async function* (from: number, to: number): AsyncIterable<Tick> {
      for await (const t of read(from, to)) {
        if (t.tickNumber % 64 === 0) await sleep(100);
        yield t;
      }
    };
    const { logger, lines } = capture();
    const applier = new TickApplier(
      sequencer,
      new OrderBookEngine(),
      { verifyMany: async (items) => items.map(() => true) },
      { logger },
    );
    try {
      await applier.start();
    } finally {
      await applier.stop();
    }
    const progress = lines.filter((l) => l.progress === 'order book replay');
    expect(progress.length, JSON.stringify(lines)).to.be.at.least(2);
    expect(progress[0]!.msg).to.match(
      /^order book replay: [\d,]+ of 1,000 ticks \(\d+%\), [\d,]+ ticks\/s, about .+ left$/,
    );
    expect(progress[0]!.total).to.equal(1000);
    expect(progress.at(-1)!.msg).to.match(/^order book replay: done, 1,000 ticks in \d/);
  });
});
