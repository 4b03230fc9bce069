/** The SDK surface the real-sequencer tests use, plus the 8-hex short form of a full hash. */
export * from '../../../src/sdk/index.js';

export function shortHashOf(fullHex: string): string {
  return fullHex.slice(0, 8);
}
