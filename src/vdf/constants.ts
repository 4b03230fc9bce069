/**
 * Fixed parameters of the VDF construction (docs/vdf.md): the RSA-2048 challenge
 * modulus, element size, domain-separation tags, the trivial-proof threshold and the
 * iteration limits. Every engine (BigInt reference, WASM, browser) reads them from here.
 */

/** RSA-2048 challenge modulus (factors unknown). */
export const N = BigInt(
  '25195908475657893494027183240048398571429282126204032027777137836043662020707595556264018525880784406918290641249515082189298559149176184502808489120072844992687392807287776735971418347270261896375014971824691165077613379859095700097330459748808428401797429100642458691817195118746121515172654632282216869987549182422433637259085141865462043576798423387184774447920739934236584823824281198163815010674810451660377306056201619676256133844143603833904414952634432190114657544454178424020924616515723350778707749817125772467962926386356373289912154831438167899885040445364023527381951378636564391212010397122822120720357',
);

/** Largest canonical signed residue: (N - 1) / 2. */
export const HALF_N = (N - 1n) / 2n;

/** Every group element, input, output and proof is 256 big-endian bytes. */
export const ELEMENT_BYTES = 256;

/** transaction_batch_hash length. */
export const BATCH_HASH_BYTES = 32;

/** Bit length of the Wesolowski challenge prime l (top bit forced: 2^127 < l < 2^128). */
export const PRIME_BITS = 128;

/**
 * Trivial-proof threshold: for T < PRIME_BITS, floor(2^T / l) = 0, so the proof is the
 * identity element 1 and verification recomputes y = x^(2^T) directly (no hash-to-prime).
 */
export const TRIVIAL_PROOF_MAX_T = PRIME_BITS - 1;

/** Smallest and largest iterations a claim may carry (larger T is rejected as absurd). */
export const MIN_ITERATIONS = 1;
export const MAX_ITERATIONS = 2 ** 26; // ~3 minutes of squaring here; verification cost does not depend on T

/** Largest tick number (tick numbers are JSON/JS safe integers). */
export const MAX_TICK_NUMBER = Number.MAX_SAFE_INTEGER;

/**
 * Default squarings per busy tick: chosen so that a busy tick's VDF time (hash-to-group +
 * evaluate + prove) has p50 <= 100 us on the project's machine (bench/vdf.bench.ts).
 */
export const DEFAULT_BUSY_ITERATIONS = 20;

/** ASCII domain-separation tags (docs/vdf.md). */
export const DOMAIN_GENESIS = 'svc-vdf-v1/genesis';
export const DOMAIN_HASH_TO_GROUP = 'svc-vdf-v1/h2g';
export const DOMAIN_HASH_TO_PRIME = 'svc-vdf-v1/h2p';

/** Number of SHA-256 blocks expanded into a group element (320 bytes = 2560 bits). */
export const EXPAND_BLOCKS = 10;

/** Bits of each random exponent in the batch check (soundness error 2^-64). */
export const BATCH_RANDOM_BITS = 64;
