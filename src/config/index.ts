/**
 * The door of src/config, the one flag table: the flags and SVC_* variables (flags.ts) and
 * their parsing into a NodeConfig or an IndexerConfig (parse.ts).
 */
export type { NodeConfig, ParseOutcome } from './interface.js';
export { FLAGS, defaultIntakeThreads, envName, followLeaders } from './flags.js';
export { closest } from './suggest.js';
export {
  helpText,
  joinNegativeValues,
  explainArgsError,
  parseIndexerConfig,
  parseNodeConfig,
  nodeConfig,
} from './parse.js';
