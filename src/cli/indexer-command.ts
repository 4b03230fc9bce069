/**
 * `svc indexer [flags]`: consume the node's JetStream stream into PostgreSQL and serve
 * its history (docs/indexer.md). Prints `listening indexer HOST:PORT`; SIGINT or SIGTERM
 * stops it after the database transaction in flight (exit 0), a second signal at once.
 */
import { parseIndexerConfig } from '../config/index.js';
import { startIndexer } from '../indexer/index.js';
import { createLogger } from '../log/index.js';
import { formatHostPort } from '../wire/index.js';
import type { Command } from './command.js';

const command: Command = {
  summary: "consume the node's JetStream stream into PostgreSQL and serve its history",
  async run(args: string[]): Promise<number> {
    const outcome = parseIndexerConfig(args, process.env);
    if (outcome.kind === 'help') {
      console.log(outcome.text);
      return 0;
    }
    if (outcome.kind === 'error') {
      console.error(`svc indexer: ${outcome.message}\nrun 'svc indexer --help' for the options`);
      return 2;
    }
    const { logLevel, ...config } = outcome.config;
    const logger = createLogger(logLevel);
    let indexer;
    try {
      indexer = await startIndexer({ ...config, logger });
    } catch (err) {
      console.error(`svc indexer: ${(err as Error).message}`);
      return 1;
    }
    console.log(`listening indexer ${formatHostPort(indexer.address)}`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    const again = () => process.exit(130);
    process.once('SIGINT', again);
    process.once('SIGTERM', again);
    await indexer.close();
    setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
    return 0;
  },
};

export default command;
