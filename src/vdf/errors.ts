/**
 * Typed errors of the VDF engine. Every rejection of malformed input (wrong length,
 * non-hex, out-of-range or non-canonical element, bad iterations, bad tick number)
 * throws a VdfError whose `code` callers can switch on; wrong-but-well-formed claims
 * are not errors: verify() simply answers false.
 */

export type VdfErrorCode =
  | 'BAD_TYPE' // not a Uint8Array / string / number where one is required
  | 'BAD_LENGTH' // wrong byte or hex length (truncated or oversized)
  | 'BAD_HEX' // non-hex characters
  | 'OUT_OF_RANGE' // element is 0 or >= N
  | 'NOT_CANONICAL' // element in ((N-1)/2, N): not a canonical signed residue
  | 'BAD_ITERATIONS' // T not an integer in [1, MAX_ITERATIONS]
  | 'BAD_TICK_NUMBER' // tick number not an integer in [1, 2^53 - 1]
  | 'OUTPUT_MISMATCH' // prove() was given an output that is not x^(2^T)
  | 'BAD_TICK_JSON' // browser verifier: malformed tick object
  | 'ENGINE'; // WASM engine failed to load or misbehaved

export class VdfError extends Error {
  readonly code: VdfErrorCode;
  constructor(code: VdfErrorCode, message: string) {
    super(message);
    this.name = 'VdfError';
    this.code = code;
  }
}

export function isVdfError(e: unknown): e is VdfError {
  return e instanceof VdfError;
}
