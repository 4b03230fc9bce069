/**
 * The clock's prepared export buffer (src/clock/checkpoint-buffer.ts): ready only once every
 * byte of it was written, a slice per prepare(); sized 1.25 x the largest export seen (up to
 * its cap); given up when an export went into it, dropped when outgrown, kept otherwise.
 */
import { expect } from 'chai';
import { CheckpointBuffer, MAX_SPARE_BYTES, PREPARE_SLICE_BYTES } from '../../src/clock/checkpoint-buffer.js';

describe('clock/checkpoint-buffer', () => {
  it('prepares nothing before an export gave it a size; then is ready after one prepare() per slice', () => {
    const b = new CheckpointBuffer();
    b.prepare();
    expect(b.ready()).to.equal(undefined);
    b.exported(new Uint8Array(3 * PREPARE_SLICE_BYTES)); // a new array's export: the spare will be 3.75 slices
    const slices = Math.ceil((3 * PREPARE_SLICE_BYTES * 1.25) / PREPARE_SLICE_BYTES);
    for (let i = 0; i < slices - 1; i++) {
      b.prepare();
      expect(b.ready(), `after ${i + 1} of ${slices} slices`).to.equal(undefined);
    }
    b.prepare();
    const spare = b.ready()!;
    expect(spare.length).to.equal(Math.ceil(3 * PREPARE_SLICE_BYTES * 1.25));
    b.prepare(); // nothing more to do
    expect(b.ready()).to.equal(spare);
  });

  it('gives the spare up once an export used it, keeps it when one did not, and drops it when outgrown', () => {
    const b = new CheckpointBuffer();
    b.exported(new Uint8Array(1000));
    while (!b.ready()) b.prepare();
    const spare = b.ready()!;
    b.exported(new Uint8Array(900)); // a smaller export into a new array (the spare was not asked for)
    expect(b.ready(), 'kept').to.equal(spare);
    b.exported(spare.subarray(0, 1100)); // an export into it: its buffer leaves the thread
    expect(b.ready()).to.equal(undefined);
    while (!b.ready()) b.prepare();
    expect(b.ready()!.length).to.equal(Math.ceil(1100 * 1.25));
    const kept = b.ready()!;
    b.exported(new Uint8Array(5000)); // larger than the spare: it is outgrown
    expect(b.ready()).to.equal(undefined);
    while (!b.ready()) b.prepare();
    expect(b.ready()).to.not.equal(kept);
    expect(b.ready()!.length).to.equal(6250);
  });

  it('never prepares more than its cap', () => {
    const b = new CheckpointBuffer();
    b.exported(new Uint8Array(MAX_SPARE_BYTES));
    let calls = 0;
    while (!b.ready()) {
      b.prepare();
      calls++;
    }
    expect(b.ready()!.length).to.equal(MAX_SPARE_BYTES);
    expect(calls).to.equal(MAX_SPARE_BYTES / PREPARE_SLICE_BYTES);
  });
});
