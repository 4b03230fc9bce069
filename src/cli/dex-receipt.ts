/**
 * `svc receipt verify --receipt FILE|- [--public-key B58 | --url URL]`: rebuild a receipt's
 * signing message and check the sequencer's signature. Without --public-key, the key is
 * fetched from the node's GET /health. Exit 0 when valid, 1 when not.
 */
import { readFile } from 'node:fs/promises';
import { DexClient, fromBase58Key, verifyReceiptDetailed, type Receipt } from '../sdk/index.js';
import { parseArgs } from 'node:util';
import type { Command } from './main.js';
import { dexUrl, guard, need, printJson } from './dex-common.js';

async function readAll(path: string): Promise<string> {
  if (path !== '-') return readFile(path, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const command: Command = {
  summary: "check a receipt's sequencer signature (svc receipt verify --receipt r.json)",
  run: (args) =>
    guard(async () => {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: {
        receipt: { type: 'string', short: 'r' },
        'public-key': { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      } });
      if (values.help || positionals[0] !== 'verify') {
        console.log('usage: svc receipt verify --receipt FILE|- [--public-key <base58> | --url URL]');
        return values.help ? 0 : 2;
      }
      const parsed = JSON.parse(await readAll(need(values.receipt, 'receipt'))) as Receipt | { receipt: Receipt };
      const receipt = 'receipt' in parsed ? parsed.receipt : parsed;
      const pk = values['public-key'] ?? (await new DexClient(dexUrl(values.url)).health()).public_key;
      const verdict = verifyReceiptDetailed(receipt, fromBase58Key(pk, 'public key'));
      printJson({ valid: verdict.valid, ...(verdict.reason ? { reason: verdict.reason } : {}), sequencer_id: receipt.sequencer_id, public_key: pk });
      return verdict.valid ? 0 : 1;
    }),
};
export default command;
