/**
 * `svc keygen [NAME] [--out FILE] [--force]`: a new ed25519 key for trading. With NAME it
 * is kept as <svc dir>/keys/NAME.json (dex-common.ts), with --out in FILE; either way mode
 * 0600, never overwriting without --force, and one line is printed: the public key and the
 * file. With neither, the key file itself is printed (one line of JSON).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { generateKeyPair, keyFileOf, type KeyFile } from '../sdk/index.js';
import { single } from './command.js';
import { ensureDirFor, HOME_HELP, resolveFile } from './dex-common.js';
import { optional, UsageError } from './options.js';

export default single({
  spec: {
    name: 'keygen',
    summary: 'create an ed25519 trading key (svc keygen alice)',
    usage: '[options] [NAME]',
    description: `NAME keeps the key in the svc directory (${HOME_HELP}) as keys/NAME.json;\nother commands then take --key NAME. Prints {"public_key":...,"file":...} on one line.`,
    options: [
      { name: 'out', short: 'o', type: 'string', value: 'FILE', help: 'write the key to FILE instead' },
      { name: 'force', type: 'boolean', help: 'replace an existing key file' },
    ],
    examples: ['svc keygen alice', 'svc keygen --out /secure/bob.json'],
  },
  async run(v, positionals) {
    if (positionals.length > 1) throw new UsageError(`give at most one NAME (got ${positionals.length})`);
    const name = positionals[0];
    const out = optional(v, 'out');
    if (name !== undefined && out !== undefined) throw new UsageError('give a NAME or --out FILE, not both');
    const file = keyFileOf(generateKeyPair());
    if (name === undefined && out === undefined) {
      console.log(JSON.stringify(file));
      return 0;
    }
    const path = out ?? resolveFile('keys', name!);
    if (out === undefined) await ensureDirFor(path, 'keys');
    try {
      await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: v.force ? 'w' : 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const existing = await readFile(path, 'utf8')
        .then((t) => (JSON.parse(t) as Partial<KeyFile>).public_key)
        .catch(() => undefined);
      throw new UsageError(`${path} already exists${existing ? ` (public key ${existing})` : ''}; --force replaces it`);
    }
    console.log(JSON.stringify({ public_key: file.public_key, file: path }));
    return 0;
  },
});
