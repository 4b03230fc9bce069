/**
 * `svc node [flags]`: parse flags and SVC_* variables, start the node, and shut it down
 * gracefully on SIGINT or SIGTERM (exit 0). A second signal exits at once with 130.
 */
import { parseNodeConfig } from '../config/index.js';
import { startNode, StartupError } from '../node/index.js';
import type { Command } from './command.js';

const command: Command = {
  summary: 'run the node (gRPC, REST and the other faces)',
  async run(args: string[]): Promise<number> {
    const outcome = parseNodeConfig(args, process.env);
    if (outcome.kind === 'help') {
      console.log(outcome.text);
      return 0;
    }
    if (outcome.kind === 'error') {
      console.error(`svc node: ${outcome.message}\nrun 'svc node --help' for the options`);
      return 2;
    }
    let node;
    try {
      node = await startNode(outcome.config);
    } catch (err) {
      if (!(err instanceof StartupError)) throw err;
      console.error(`svc node: ${err.message}`);
      return 1;
    }
    const signalled = await new Promise<NodeJS.Signals | Error>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      void node.failed.then(resolve);
    });
    if (signalled instanceof Error) {
      // A full node whose leader served a tick that fails verification: say which, exit 1.
      console.error(`svc node: ${signalled.message}`);
      await node.close();
      setTimeout(() => process.exit(1), 1000).unref();
      return 1;
    }
    const again = () => process.exit(130);
    process.once('SIGINT', again);
    process.once('SIGTERM', again);
    void signalled;
    await node.close();
    // Anything a library left open must not keep a stopped node alive.
    setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
    return 0;
  },
};

export default command;
