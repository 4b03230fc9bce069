/**
 * The readers' byte budget (src/wire/reader-pace.ts) as a node configures it: the floor
 * readers get while ordering has work is the node's --reader-floor, set once at start.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { nodeConfig } from '../../src/config/index.js';
import { DEFAULT_READER_PACE, ReaderPace } from '../../src/wire/index.js';

describe('wire/reader-pace: the floor', () => {
  it('--reader-floor is parsed as bytes per second (default 4 MiB), and a value out of range is refused', () => {
    expect(nodeConfig([]).readerFloor).to.equal(4 * 1024 * 1024);
    expect(nodeConfig(['--reader-floor', '512KiB']).readerFloor).to.equal(512 * 1024);
    expect(() => nodeConfig(['--reader-floor', '1KiB'])).to.throw(/reader-floor/);
  });

  it('configure() changes the floor a busy window drops to; the other options stay', async () => {
    const pace = new ReaderPace({ ...DEFAULT_READER_PACE, windowMs: 5 });
    pace.configure({ minBytesPerS: 1_000_000 });
    expect(pace.settings.minBytesPerS).to.equal(1_000_000);
    expect(pace.settings.maxBytesPerS).to.equal(DEFAULT_READER_PACE.maxBytesPerS);
    expect(DEFAULT_READER_PACE.minBytesPerS, 'the defaults are not changed').to.equal(4 * 1024 * 1024);
    pace.busyWhen(() => true);
    await sleep(10);
    pace.take(1); // revises the rate: a window passed, and ordering is busy
    expect(pace.rate).to.equal(1_000_000);
  });
});
