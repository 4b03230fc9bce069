/** `svc status`: the node's current tick, transactions, rate and uptime (gRPC GetStatus). */
import { single } from './command.js';
import { formatDuration } from '../log/index.js';
import { GRPC_URL_OPTION, nodeClient } from './grpc.js';
import { optional, UsageError } from './options.js';

export default single({
  spec: {
    name: 'status',
    summary: "the node's current tick, transactions, pending queue, rate and uptime",
    usage: '[options]',
    options: [{ name: 'json', type: 'boolean', help: 'print the answer as JSON' }, GRPC_URL_OPTION],
    examples: ['svc status', 'svc status --json --grpc-url 10.0.0.5:9090'],
  },
  async run(v, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const client = nodeClient(optional(v, 'grpc-url')!);
    try {
      const s = await client.status();
      const out = {
        current_tick: Number(s.current_tick),
        total_transactions: Number(s.total_transactions),
        pending_transactions: Number(s.pending_transactions),
        transactions_per_second: s.transactions_per_second,
        uptime_seconds: Number(s.uptime_seconds),
      };
      if (v.json) console.log(JSON.stringify(out));
      else {
        console.log(
          `${client.target}: tick ${out.current_tick}, ${out.total_transactions} transactions in ticks, ${out.pending_transactions} pending, ` +
            `${out.transactions_per_second.toFixed(1)} tx/s, up ${formatDuration(out.uptime_seconds)}`,
        );
      }
      return 0;
    } finally {
      client.close();
    }
  },
});
