/**
 * The gateway channel in-process: frame codecs round trip, frames cut anywhere in the byte
 * stream come out whole, an oversized frame is refused, and a gateway's SequencerChannel
 * never queues past its bound (503 QUEUE_FULL at once) and answers 503 UNAVAILABLE for
 * what was waiting when the sequencer side goes away.
 */
import { expect } from 'chai';
import { createServer, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DexRefusal } from '../../../../src/dex/errors.js';
import {
  decodeReply,
  decodeRequest,
  encodeApplied,
  encodeRefused,
  encodeRequest,
  FrameReader,
  KIND_CANCEL,
  KIND_ORDER,
  MAX_FRAME_BYTES,
  SequencerChannel,
} from '../../../../src/dex/api/gateway/index.js';

describe('gateway channel', () => {
  it('requests and replies round trip; frames split at every byte come out whole', () => {
    const payload = new Uint8Array(197).map((_, i) => i);
    const req = encodeRequest({
      id: 7,
      kind: KIND_ORDER,
      signatureValid: true,
      nonce: 0xfedcba9876543210n,
      from: '127.0.0.9',
      payload,
    });
    const applied = encodeApplied({
      id: 8,
      tickNumber: 12n,
      tickTimestampMs: 1_700_000_000_123n,
      merkleRoot: new Uint8Array(32).fill(3),
      continuumSequence: (12n << 32n) | 5n,
      txHash: new Uint8Array(32).fill(4),
      rest: '{"status":"Filled","trades":[]}',
    });
    const refused = encodeRefused({
      id: 9,
      status: 409,
      code: 'ORDER_REPLAYED',
      message: 'order_id already used — by this owner',
    });
    const stream = Buffer.concat([req, applied, refused]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const reader = new FrameReader();
      const frames: Buffer[] = [];
      reader.push(stream.subarray(0, cut), (f) => frames.push(Buffer.from(f)));
      reader.push(stream.subarray(cut), (f) => frames.push(Buffer.from(f)));
      expect(frames.length, `cut at ${cut}`).to.equal(3);
      const r = decodeRequest(frames[0]!);
      expect(r).to.deep.include({
        id: 7,
        kind: KIND_ORDER,
        signatureValid: true,
        nonce: 0xfedcba9876543210n,
        from: '127.0.0.9',
      });
      expect(Buffer.from(r.payload).equals(Buffer.from(payload))).to.equal(true);
      const a = decodeReply(frames[1]!);
      expect(a.type).to.equal(1);
      if (a.type === 1) {
        expect([a.id, a.tickNumber, a.tickTimestampMs, a.continuumSequence]).to.deep.equal([
          8,
          12n,
          1_700_000_000_123n,
          (12n << 32n) | 5n,
        ]);
        expect([...a.merkleRoot]).to.deep.equal(new Array(32).fill(3));
        expect([...a.txHash]).to.deep.equal(new Array(32).fill(4));
        expect(JSON.parse(a.rest)).to.deep.equal({ status: 'Filled', trades: [] });
      }
      expect(decodeReply(frames[2]!)).to.deep.equal({
        type: 0,
        id: 9,
        status: 409,
        code: 'ORDER_REPLAYED',
        message: 'order_id already used — by this owner',
      });
    }
  });

  it('refuses a frame above the limit and a request of unknown kind', () => {
    const head = Buffer.alloc(4);
    head.writeUInt32LE(MAX_FRAME_BYTES + 1);
    expect(() => new FrameReader().push(head, () => undefined)).to.throw(/above the limit/);
    const bad = encodeRequest({
      id: 1,
      kind: KIND_CANCEL,
      signatureValid: false,
      nonce: 0n,
      from: '',
      payload: new Uint8Array(0),
    });
    bad[8] = 9;
    expect(() => decodeRequest(bad)).to.throw(/unknown request kind/);
  });

  it('a gateway lets at most maxInflight requests wait, shared fairly per client address (503 QUEUE_FULL at once), and a lost sequencer fails them with 503 UNAVAILABLE', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-gw-test-'));
    const path = join(dir, 's.sock');
    const peers: Socket[] = [];
    let received = 0;
    const server = createServer((s) => {
      peers.push(s);
      const reader = new FrameReader();
      s.on('data', (c: Buffer) => reader.push(c, () => received++)); // never answers
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const channel = await SequencerChannel.connect(path, 2);
      const send = () =>
        channel.send({ kind: KIND_ORDER, signatureValid: true, nonce: 1n, from: '', payload: new Uint8Array(8) });
      const waiting = [send(), send()];
      const refused = await send().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).to.be.instanceOf(DexRefusal);
      expect((refused as DexRefusal).status).to.equal(503);
      expect((refused as DexRefusal).code).to.equal('QUEUE_FULL');
      expect(channel.inflight).to.equal(2);
      // Another address is under its fair share (1 of 2): taken although the gateway is full.
      waiting.push(
        channel.send({
          kind: KIND_ORDER,
          signatureValid: true,
          nonce: 2n,
          from: '10.0.0.2',
          payload: new Uint8Array(8),
        }),
      );
      expect(channel.inflight).to.equal(3);
      for (let i = 0; i < 200 && received < 3; i++) await new Promise((r) => setTimeout(r, 10));
      expect(received).to.equal(3);
      for (const p of peers) p.destroy();
      const replies = await Promise.all(waiting);
      for (const r of replies) expect(r).to.deep.include({ type: 0, status: 503, code: 'UNAVAILABLE' });
      expect(channel.isClosed).to.equal(true);
      const after = await send().then(
        () => undefined,
        (e: unknown) => e as DexRefusal,
      );
      expect(after?.code).to.equal('UNAVAILABLE');
    } finally {
      server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
