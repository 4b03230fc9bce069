/**
 * A leader's wire tick (StreamTicks as proto-loader gives it: u64 as decimal strings, VDF
 * fields as hex, bytes as Buffers) -> the domain Tick a follower stores
 * (src/follow/decode-tick.ts): exact round trip, and every malformed field refused with a
 * message naming the tick and the field.
 */
import { expect } from 'chai';
import type { Tick } from '../../src/core/types.js';
import type { WireTick } from '../../src/sequencer/api/client/index.js';
import { tickOfWire } from '../../src/follow/decode-tick.js';
import { makeTick } from '../store/fixtures.js';
import { wireOf } from './support/fake-leader.js';

describe('follow/decode-tick', () => {
  it('decodes a wire tick to exactly the tick it was made from (0x prefix and upper case too)', () => {
    const tick = makeTick(7, 3, 40, { trivial: false });
    const back = tickOfWire(wireOf(tick)) as Tick;
    expect(back).to.deep.equal(tick);
    const w = wireOf(tick);
    w.vdf_proof.output = `0x${w.vdf_proof.output.toUpperCase()}`;
    expect((tickOfWire(w) as Tick).vdfProof.output).to.deep.equal(tick.vdfProof.output);
  });

  it('refuses short, long, odd and non-hex fields, and a missing one, naming the tick and the field', () => {
    const tick = makeTick(9, 1, 5);
    const cases: Array<[string, (w: WireTick) => void, RegExp]> = [
      [
        'short input',
        (w) => (w.vdf_proof.input = w.vdf_proof.input.slice(2)),
        /tick 9: vdf_proof.input: expected 512 hex digits, got 510/,
      ],
      ['long output', (w) => (w.vdf_proof.output += '00'), /vdf_proof.output: expected 512 hex digits, got 514/],
      [
        'non-hex proof',
        (w) => (w.vdf_proof.proof = `g${w.vdf_proof.proof.slice(1)}`),
        /vdf_proof.proof: not hexadecimal/,
      ],
      [
        'space in batch hash',
        (w) => (w.transaction_batch_hash = ` ${w.transaction_batch_hash.slice(1)}`),
        /transaction_batch_hash: not hexadecimal/,
      ],
      ['missing previous output', (w) => delete (w as Partial<WireTick>).previous_output, /previous_output is missing/],
    ];
    for (const [what, spoil, message] of cases) {
      const w = wireOf(tick);
      spoil(w);
      const r = tickOfWire(w);
      expect(r, what).to.have.property('code', 'BAD_TICK');
      expect((r as { message: string }).message, what).to.match(message);
    }
  });

  it('a transaction whose bytes do not hash to its tx_hash is BAD_TX_HASH', () => {
    const w = wireOf(makeTick(11, 2, 1));
    w.transactions[1]!.transaction.payload = Buffer.from('changed');
    expect(tickOfWire(w)).to.include({ tickNumber: 11, code: 'BAD_TX_HASH' });
  });
});
