/**
 * The door of src/log: JSON logs on stderr (logger.ts) and start-up progress (progress.ts).
 */
export type { Logger } from 'pino';
export { formatDuration, progressFigures, startProgress } from './progress.js';
export * from './logger.js';
