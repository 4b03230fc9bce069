/**
 * The gateway channel's batch frames (src/dex/api/gateway/batch-frames.ts): a batch round-trips item
 * by item, and a frame that does not hold together (truncated, an item past its end, bytes
 * after the last item, an address longer than the limit) throws, so the node process closes
 * that channel instead of reading items out of someone else's bytes. And the fair share's
 * room (src/dex/fair-share.ts), which decides whether a batch is taken whole.
 */
import { expect } from 'chai';
import {
  decodeBatchRequest,
  encodeBatchRequest,
  encodeTaken,
  isBatchRequest,
  isTakenReply,
} from '../../../../src/dex/api/gateway/batch-frames.js';
import { encodeRequest, KIND_CANCEL, KIND_ORDER } from '../../../../src/dex/api/gateway/frames.js';
import { FairShare } from '../../../../src/dex/fair-share.js';

function items(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) =>
    encodeRequest({
      id: 100 + i,
      kind: i % 2 ? KIND_CANCEL : KIND_ORDER,
      signatureValid: i % 3 !== 0,
      nonce: BigInt(i) << 40n,
      from: '',
      payload: new Uint8Array(150 + i).fill(i),
    }),
  );
}

describe('gateway batch frames', () => {
  it('round-trip: id, address and every item in order', () => {
    const frame = encodeBatchRequest(7, '10.0.0.9', items(64));
    expect(isBatchRequest(frame)).to.equal(true);
    const b = decodeBatchRequest(frame);
    expect([b.id, b.from, b.items.length]).to.deep.equal([7, '10.0.0.9', 64]);
    b.items.forEach((it, i) => {
      expect([it.id, it.kind, it.signatureValid, it.nonce, it.payload.length, it.payload[0]]).to.deep.equal([
        100 + i,
        i % 2 ? KIND_CANCEL : KIND_ORDER,
        i % 3 !== 0,
        BigInt(i) << 40n,
        150 + i,
        i,
      ]);
    });
    expect(isTakenReply(encodeTaken(7))).to.equal(true);
    expect(isBatchRequest(items(1)[0]!)).to.equal(false);
  });

  it('a frame that does not hold together throws', () => {
    const frame = encodeBatchRequest(1, '127.0.0.1', items(3));
    for (const cut of [10, 12, 30, frame.length - 1])
      expect(() => decodeBatchRequest(frame.subarray(0, cut)), `cut at ${cut}`).to.throw(/channel:/);
    expect(() => decodeBatchRequest(Buffer.concat([frame, Buffer.from([0])]))).to.throw(/after the last/);
    const lying = Buffer.from(frame);
    lying.writeUInt32LE(1 << 20, 4 + 4 + 1 + 1 + 9 + 1); // the first item's length, past the end
    expect(() => decodeBatchRequest(lying)).to.throw(/past the end/);
    const longFrom = Buffer.from(frame);
    longFrom[9] = 200;
    expect(() => decodeBatchRequest(longFrom)).to.throw(/too short/);
  });

  it('fair share room: what an address may still take, all of a batch or none', () => {
    const s = new FairShare(8);
    expect(s.room('a')).to.equal(8);
    for (let i = 0; i < 3; i++) s.enter('a');
    expect(s.room('a')).to.equal(5);
    expect(s.room('b')).to.equal(4); // b arriving halves the share: 8 / 2
    s.enter('b');
    expect(s.room('a')).to.equal(1);
    expect(s.room('b')).to.equal(3);
  });
});
