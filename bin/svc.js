#!/usr/bin/env node
// Entry point of the `svc` command; the CLI itself is TypeScript compiled to dist/.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Node 22.1+ keeps the compiled code of svc's modules on disk (in NODE_COMPILE_CACHE, else
// node-compile-cache in the system's temporary directory, as Node's own default), so each
// start (a node, its threads and gateway processes, every command) compiles less; the
// variable hands the same directory to the node's threads and the processes it forks.
// Nothing on Node 20.
if (module.enableCompileCache) {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');
  module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
}

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
