import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { serialize } from 'borsh';
import { sign as nodeSign, createPrivateKey } from 'node:crypto';
import { verifyOne } from '../../src/crypto/ed25519.js';
import {
  buildCancelAllBody,
  cancelAllMessage,
  CANCEL_PREFIX,
  encodeCancelAllData,
  signingMessage,
  type CancelAllData,
  encodeCancelOrderData,
  encodeOrderIntent,
  encodeReceiptData,
  fromBase58Key,
  fromHex,
  keyPairFromSeed,
  marketIdOf,
  orderMessage,
  cancelMessage,
  receiptDataOf,
  receiptMessage,
  sign,
  toHex,
  verify,
  verifyReceipt,
  verifyReceiptDetailed,
  type OrderIntent,
  type Receipt,
} from '../../src/sdk/index.js';

// RFC 8032 section 7.1, tests 1-3 (secret seed, public key, message, signature).
const RFC8032 = [
  {
    secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    public: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    secret: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    public: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
  {
    secret: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    public: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
    message: 'af82',
    signature:
      '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
  },
];

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const nodeSignHex = (seedHex: string, msg: Uint8Array): string =>
  toHex(
    nodeSign(
      null,
      msg,
      createPrivateKey({
        key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seedHex, 'hex')]),
        format: 'der',
        type: 'pkcs8',
      }),
    ),
  );

describe('sdk signing: ed25519 implementations agree (RFC 8032 vectors)', () => {
  for (const [i, v] of RFC8032.entries()) {
    it(`test ${i + 1}: @noble/ed25519 and node:crypto both sign and verify`, () => {
      const kp = keyPairFromSeed(fromHex(v.secret));
      const msg = fromHex(v.message);
      expect(toHex(kp.publicKey)).to.equal(v.public);
      expect(toHex(sign(msg, kp.secretKey))).to.equal(v.signature);
      expect(nodeSignHex(v.secret, msg)).to.equal(v.signature);
      const item = { publicKey: fromHex(v.public), message: msg, signature: fromHex(v.signature) };
      expect(verify(item.signature, msg, item.publicKey)).to.equal(true);
      expect(verifyOne(item)).to.equal(true);
      const bad = fromHex(v.signature);
      bad[5]! ^= 1;
      expect(verify(bad, msg, item.publicKey)).to.equal(false);
      expect(verifyOne({ ...item, signature: bad })).to.equal(false);
      expect(verifyOne({ ...item, signature: bad.subarray(0, 63) })).to.equal(false);
    });
  }
});

const key32 = { array: { type: 'u8', len: 32 } } as const;

describe('sdk signing: Borsh layouts', () => {
  const kp = keyPairFromSeed(new Uint8Array(32).fill(9));
  const intent: OrderIntent = {
    orderId: 0xfedcba9876543210n,
    owner: kp.publicKey,
    side: 'Sell',
    price: (1n << 64n) - 1n,
    quantity: 3n,
    expiry: -1n,
    baseMint: new Uint8Array(32).fill(1),
    quoteMint: new Uint8Array(32).fill(2),
  };

  it('OrderIntent encodes exactly like the borsh package (129 bytes)', () => {
    const schema = {
      struct: {
        order_id: 'u64',
        owner: key32,
        side: 'u8',
        price: 'u64',
        quantity: 'u64',
        expiry: 'i64',
        base_mint: key32,
        quote_mint: key32,
      },
    } as const;
    const ref = serialize(schema, {
      order_id: intent.orderId,
      owner: Array.from(intent.owner),
      side: 1,
      price: intent.price,
      quantity: intent.quantity,
      expiry: intent.expiry,
      base_mint: Array.from(intent.baseMint),
      quote_mint: Array.from(intent.quoteMint),
    });
    expect(toHex(encodeOrderIntent(intent))).to.equal(toHex(ref));
    expect(ref.length).to.equal(129);
  });

  it('CancelOrderData and ReceiptData encode exactly like the borsh package', () => {
    const c = { orderId: 5n, owner: kp.publicKey, marketId: '0d2a5c3e-1111-8222-9333-444455556666' };
    const cref = serialize(
      { struct: { order_id: 'u64', owner: key32, market_id: 'string' } },
      { order_id: 5n, owner: Array.from(kp.publicKey), market_id: c.marketId },
    );
    expect(toHex(encodeCancelOrderData(c))).to.equal(toHex(cref));
    const r = {
      orderId: 1n,
      owner: kp.publicKey,
      timestampMs: 2n,
      sequencerId: 'abcdef0123456789',
      merkleRoot: new Uint8Array(32).fill(3),
      tickNumber: 4n,
      continuumSequence: 5n,
      txHash: new Uint8Array(32).fill(6),
    };
    const rref = serialize(
      {
        struct: {
          order_id: 'u64',
          owner: key32,
          timestamp_ms: 'u64',
          sequencer_id: 'string',
          merkle_root: key32,
          tick_number: 'u64',
          continuum_sequence: 'u64',
          tx_hash: key32,
        },
      },
      {
        order_id: 1n,
        owner: Array.from(kp.publicKey),
        timestamp_ms: 2n,
        sequencer_id: r.sequencerId,
        merkle_root: Array.from(r.merkleRoot),
        tick_number: 4n,
        continuum_sequence: 5n,
        tx_hash: Array.from(r.txHash),
      },
    );
    expect(toHex(encodeReceiptData(r))).to.equal(toHex(rref));
  });

  it('CancelAllData encodes exactly like the borsh package, side 0/1/2', () => {
    const schema = { struct: { request_id: 'u64', owner: key32, market_id: 'string', side: 'u8' } } as const;
    const marketId = '0d2a5c3e-1111-8222-9333-444455556666';
    for (const [side, byte] of [
      ['Buy', 0],
      ['Sell', 1],
      [undefined, 2],
    ] as const) {
      const c: CancelAllData = {
        requestId: (1n << 64n) - 1n,
        owner: kp.publicKey,
        marketId,
        ...(side ? { side } : {}),
      };
      const ref = serialize(schema, {
        request_id: c.requestId,
        owner: Array.from(kp.publicKey),
        market_id: marketId,
        side: byte,
      });
      expect(toHex(encodeCancelAllData(c))).to.equal(toHex(ref));
    }
  });

  it('refuses out-of-range integers and wrong-size keys instead of truncating', () => {
    expect(() => encodeOrderIntent({ ...intent, price: 1n << 64n })).to.throw(RangeError);
    expect(() => encodeOrderIntent({ ...intent, quantity: -1n })).to.throw(RangeError);
    expect(() => encodeOrderIntent({ ...intent, owner: new Uint8Array(31) })).to.throw(RangeError);
  });
});

interface Vectors {
  owner: { secret_key_seed: string; public_key: string; public_key_base58: string };
  order: {
    intent: Record<string, string>;
    borsh: string;
    sha256: string;
    message_utf8: string;
    message: string;
    signature: string;
  };
  cancel: {
    data: { order_id: string; owner: string; market_id: string };
    borsh: string;
    message_utf8: string;
    signature: string;
  };
  market: { base_mint: string; quote_mint: string; market_id: string };
  receipt: { sequencer_public_key: string; json: Receipt; borsh: string; message_utf8: string };
  cancel_all: Array<{
    data: { request_id: string; owner: string; market_id: string; side?: 'Buy' | 'Sell' };
    side_byte: number;
    borsh: string;
    message_utf8: string;
    signature: string;
  }>;
}

describe('sdk signing: docs/dex-vectors.json', () => {
  const v = JSON.parse(readFileSync(new URL('../../../docs/dex-vectors.json', import.meta.url), 'utf8')) as Vectors;
  const owner = fromBase58Key(v.order.intent.owner!);
  const intent: OrderIntent = {
    orderId: BigInt(v.order.intent.order_id!),
    owner,
    side: v.order.intent.side as 'Buy',
    price: BigInt(v.order.intent.price!),
    quantity: BigInt(v.order.intent.quantity!),
    expiry: BigInt(v.order.intent.expiry!),
    baseMint: fromBase58Key(v.order.intent.base_mint!),
    quoteMint: fromBase58Key(v.order.intent.quote_mint!),
  };

  it('rebuilds the order Borsh bytes, message and signature; node:crypto verifies it', () => {
    expect(toHex(owner)).to.equal(v.owner.public_key);
    expect(toHex(encodeOrderIntent(intent))).to.equal(v.order.borsh);
    const msg = orderMessage(intent);
    expect(new TextDecoder().decode(msg)).to.equal(v.order.message_utf8);
    expect(v.order.message_utf8).to.equal(v.order.sha256);
    expect(toHex(sign(msg, fromHex(v.owner.secret_key_seed)))).to.equal(v.order.signature);
    expect(verifyOne({ publicKey: owner, message: msg, signature: fromHex(v.order.signature) })).to.equal(true);
  });

  it('rebuilds the cancel message and market id', () => {
    expect(marketIdOf(fromBase58Key(v.market.base_mint), fromBase58Key(v.market.quote_mint))).to.equal(
      v.market.market_id,
    );
    const c = { orderId: BigInt(v.cancel.data.order_id), owner, marketId: v.cancel.data.market_id };
    expect(toHex(encodeCancelOrderData(c))).to.equal(v.cancel.borsh);
    const msg = cancelMessage(c);
    expect(new TextDecoder().decode(msg)).to.equal(v.cancel.message_utf8);
    expect(verifyOne({ publicKey: owner, message: msg, signature: fromHex(v.cancel.signature) })).to.equal(true);
  });

  it('rebuilds each mass cancel (CancelAllData) byte for byte: Borsh, message, signature, the SDK body', () => {
    expect(v.cancel_all.map((c) => c.side_byte)).to.deep.equal([2, 1]);
    for (const c of v.cancel_all) {
      const data: CancelAllData = {
        requestId: BigInt(c.data.request_id),
        owner: fromBase58Key(c.data.owner),
        marketId: c.data.market_id,
      };
      if (c.data.side !== undefined) data.side = c.data.side;
      expect(toHex(encodeCancelAllData(data))).to.equal(c.borsh);
      expect(fromHex(c.borsh).at(-1)).to.equal(c.side_byte);
      const msg = cancelAllMessage(data);
      expect(new TextDecoder().decode(msg)).to.equal(c.message_utf8);
      expect(toHex(sign(msg, fromHex(v.owner.secret_key_seed)))).to.equal(c.signature);
      expect(verifyOne({ publicKey: owner, message: msg, signature: fromHex(c.signature) })).to.equal(true);
      // Its own domain: the same bytes under the cancel prefix sign something else.
      expect(new TextDecoder().decode(signingMessage(CANCEL_PREFIX, fromHex(c.borsh)))).to.not.equal(c.message_utf8);
      expect(buildCancelAllBody(data, fromHex(v.owner.secret_key_seed))).to.deep.equal({
        ...c.data,
        signature: c.signature,
      });
    }
  });

  it('verifies the receipt, and refuses it when any signed field or the key changes', () => {
    const pub = fromHex(v.receipt.sequencer_public_key);
    expect(toHex(encodeReceiptData(receiptDataOf(v.receipt.json)))).to.equal(v.receipt.borsh);
    expect(new TextDecoder().decode(receiptMessage(receiptDataOf(v.receipt.json)))).to.equal(v.receipt.message_utf8);
    expect(verifyReceipt(v.receipt.json, pub)).to.equal(true);
    expect(verifyReceipt({ ...v.receipt.json, timestamp_ms: v.receipt.json.timestamp_ms + 1 }, pub)).to.equal(false);
    expect(verifyReceipt({ ...v.receipt.json, merkle_root: `${'ab'.repeat(31)}ac` }, pub)).to.equal(false);
    expect(verifyReceiptDetailed({ ...v.receipt.json, tick_number: 8 }, pub).reason).to.match(/continuum_sequence/);
    expect(verifyReceiptDetailed(v.receipt.json, fromHex(v.owner.public_key)).reason).to.match(/sequencer_id/);
    expect(verifyReceiptDetailed({ ...v.receipt.json, sequencer_signature: 'zz' }, pub).valid).to.equal(false);
  });
});
