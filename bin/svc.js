#!/usr/bin/env node
// Entry point of the `svc` command; the CLI itself is TypeScript compiled to dist/.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { if (typeof code === 'number') process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : err); process.exitCode = 1; },
);
