/**
 * The door of src/config, the one flag table: the flags and SVC_* variables (flags.ts) and
 * their parsing into a NodeConfig or an IndexerConfig (parse.ts).
 */
export type { ListenAddress, LogLevel, NodeConfig, ParseOutcome } from './interface.js';
export {
  DEFAULT_QUEUE_CAPACITY,
  DEFAULT_VDF_ITERATIONS,
  FLAGS,
  defaultIntakeThreads,
  envName,
  followLeaders,
  parseAddress,
} from './flags.js';
export { closest } from './suggest.js';
export * from './parse.js';
