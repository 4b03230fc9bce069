// Writes docs/proof-vectors.json from the node's own proof builders run on the fixed
// fixture chain (test/proofs/support/vectors.ts; docs/proofs.md "Vectors"). Run after
// `npm run build:ts`: node scripts/proof-vectors.mjs. test/proofs/vectors.test.ts checks
// that the committed file is exactly what this writes, and that every vector verifies.
import { writeFileSync } from 'node:fs';
import { makeProofVectors } from '../dist/test/proofs/support/vectors.js';

writeFileSync(
  new URL('../docs/proof-vectors.json', import.meta.url),
  `${JSON.stringify(makeProofVectors(), null, 2)}\n`,
);
console.log('proof-vectors: docs/proof-vectors.json');
