/**
 * textPut and binaryPut (src/db/prefixed-put.ts) store what a put on the sublevel stores:
 * the same key and value bytes in the real LevelDB, read back through the sublevel, also
 * for a sublevel of a sublevel (the prefix is the local one, the put goes to the parent),
 * and for keys and values outside ASCII.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryPut, openDatabase, textPut, type Database, type PrefixedPut } from '../../src/db/index.js';

type Parent = Pick<Database, 'sublevel'> & { batch(ops: PrefixedPut[]): Promise<void> };

const TEXTS: Array<[string, string]> = [
  ['0000000000000001', '{"a":1}'],
  ['owner:é', 'ÉTÉ/Ω 市場 😀'],
  ['', ''],
];
const BINARIES: Array<[string, Uint8Array]> = [
  ['head', new Uint8Array([0, 1, 2, 255])],
  ['ключ', new Uint8Array(0)],
  ['view', new Uint8Array([9, 8, 7, 6, 5]).subarray(1, 4)],
];

/** Every raw key and value of the database, hex. */
async function rawEntries(db: Database): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for await (const [k, v] of db.iterator<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }))
    out.push([Buffer.from(k).toString('hex'), Buffer.from(v).toString('hex')]);
  return out;
}

function sublevels(parent: Pick<Database, 'sublevel'>) {
  return {
    text: parent.sublevel<string, string>('t', { keyEncoding: 'utf8', valueEncoding: 'utf8' }),
    binary: parent.sublevel<string, Uint8Array>('b', { keyEncoding: 'utf8', valueEncoding: 'view' }),
  };
}

describe('db/prefixed-put', () => {
  const dirs: string[] = [];
  const dbs: Database[] = [];
  async function fresh(): Promise<Database> {
    const dir = await mkdtemp(join(tmpdir(), 'svc-prefixed-put-'));
    dirs.push(dir);
    const db = await openDatabase(dir);
    dbs.push(db);
    return db;
  }
  after(async () => {
    for (const db of dbs) await db.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  for (const nested of [false, true]) {
    it(`stores the bytes of the sublevel's own puts${nested ? ' (sublevels of a sublevel)' : ''}`, async () => {
      const a = await fresh();
      const b = await fresh();
      const parentOf = (db: Database): Parent =>
        (nested ? db.sublevel<string, Uint8Array>('outer', { valueEncoding: 'view' }) : db) as unknown as Parent;
      const pa = parentOf(a);
      const sa = sublevels(pa);
      await pa.batch([
        ...TEXTS.map(([k, v]) => textPut(sa.text, k, v)),
        ...BINARIES.map(([k, v]) => binaryPut(sa.binary, k, v)),
      ]);
      const sb = sublevels(parentOf(b));
      for (const [k, v] of TEXTS) await sb.text.put(k, v);
      for (const [k, v] of BINARIES) await sb.binary.put(k, v);

      const got = await rawEntries(a);
      expect(got).to.have.length(TEXTS.length + BINARIES.length);
      expect(got).to.deep.equal(await rawEntries(b));
      for (const [k, v] of TEXTS) expect(await sa.text.get(k)).to.equal(v);
      for (const [k, v] of BINARIES) expect(Buffer.from((await sa.binary.get(k))!)).to.deep.equal(Buffer.from(v));
    });
  }
});
