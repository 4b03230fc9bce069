#!/usr/bin/env node
// Entry point of the `svc` command; the CLI itself is TypeScript compiled to dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  console.error(
    `svc: not built yet (${fileURLToPath(main)} is missing): run 'npm install' or 'npm run build' in ${root}`,
  );
  process.exit(1);
}
const { main: run } = await import(main.href);
run(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    console.error(`svc: ${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  },
);
