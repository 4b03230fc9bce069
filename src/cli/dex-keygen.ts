/**
 * `svc keygen [--out FILE] [--force]`: a new ed25519 key for trading. Writes the key file
 * (mode 0600; refuses to overwrite without --force) or prints it; prints the public key.
 */
import { writeFile } from 'node:fs/promises';
import { generateKeyPair, keyFileOf } from '../sdk/index.js';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';
import { guard, printJson } from './dex-common.js';

const command: Command = {
  summary: 'create an ed25519 trading key (svc keygen --out alice.json)',
  run: (args) =>
    guard(async () => {
      const { values } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string', short: 'o' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
      if (values.help) {
        console.log('usage: svc keygen [--out FILE] [--force]');
        return 0;
      }
      const file = keyFileOf(generateKeyPair());
      if (values.out) {
        await writeFile(values.out, JSON.stringify(file, null, 2) + '\n', { mode: 0o600, flag: values.force ? 'w' : 'wx' });
        printJson({ public_key: file.public_key, file: values.out });
      } else {
        printJson(file);
      }
      return 0;
    }),
};
export default command;
