/**
 * Size limits of a submitted transaction (spec/1 leaves them open; these are the
 * node's documented values, see docs/sequencer.md). The front-ends rely on these exact
 * numbers, e.g. to size the gRPC server's maximum message length.
 */

/** tx_id: 1..128 bytes of UTF-8. */
export const MAX_TX_ID_BYTES = 128;
/** payload: at most 64 KiB. */
export const MAX_PAYLOAD_BYTES = 65_536;
/** signature: at most 256 bytes (room for ed25519, ECDSA, RSA-2048, ...). */
export const MAX_SIGNATURE_BYTES = 256;
/** public_key: at most 256 bytes. */
export const MAX_PUBLIC_KEY_BYTES = 256;
/** nonce and timestamp are u64. */
export const MAX_U64 = 0xffff_ffff_ffff_ffffn;
/** SubmitBatch: at most this many transactions per call. */
export const MAX_BATCH_TRANSACTIONS = 10_000;

/** Largest Borsh encoding of one valid transaction (4-byte length prefixes, two u64). */
export const MAX_TRANSACTION_BYTES =
  4 + MAX_TX_ID_BYTES + 4 + MAX_PAYLOAD_BYTES + 4 + MAX_SIGNATURE_BYTES + 4 + MAX_PUBLIC_KEY_BYTES + 8 + 8;
