/**
 * `svc receipt verify --receipt NAME|FILE|- [--public-key B58 | --url URL]`: rebuild a
 * receipt's signing message and check the sequencer's signature. Without --public-key, the
 * key is fetched from the node's GET /health. Exit 0 when valid, 1 when not.
 */
import { DexClient, fromBase58Key, verifyReceiptDetailed, type Receipt } from '../sdk/index.js';
import { group, type Subcommand } from './command.js';
import { DEX_URL_OPTION, HOME_HELP, printJson, resolveFile } from './dex-common.js';
import { readFileOrStdin } from './input.js';
import { optional, required, UsageError } from './options.js';

const verify: Subcommand = {
  spec: {
    name: 'receipt verify',
    summary: "check a receipt's sequencer signature",
    usage: '--receipt NAME|FILE|- [options]',
    description:
      'Takes a receipt, or a whole `svc order place` answer. Prints {"valid":...}; exits 0 when valid, 1 when not.',
    options: [
      {
        name: 'receipt',
        short: 'r',
        type: 'string',
        value: 'NAME|FILE|-',
        help: `a receipt saved with --receipt-out NAME (${HOME_HELP}/receipts), a file, or - for stdin`,
      },
      {
        name: 'public-key',
        type: 'string',
        value: 'B58',
        help: "the sequencer's public key",
        defaultHelp: "fetched from the node's GET /health",
      },
      DEX_URL_OPTION,
    ],
    examples: ['svc receipt verify --receipt alice-sell'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const arg = required(v, 'receipt');
    const parsed = JSON.parse(await readFileOrStdin(arg === '-' ? '-' : resolveFile('receipts', arg))) as
      | Receipt
      | { receipt: Receipt };
    const receipt = 'receipt' in parsed ? parsed.receipt : parsed;
    const pk = optional(v, 'public-key') ?? (await new DexClient(optional(v, 'url')!).health()).public_key;
    const verdict = verifyReceiptDetailed(receipt, fromBase58Key(pk, 'public key'));
    printJson({
      valid: verdict.valid,
      ...(verdict.reason ? { reason: verdict.reason } : {}),
      sequencer_id: receipt.sequencer_id,
      public_key: pk,
    });
    return verdict.valid ? 0 : 1;
  },
};

export default group('receipt', "check a receipt's sequencer signature (svc receipt verify --receipt alice-sell)", [
  verify,
]);
