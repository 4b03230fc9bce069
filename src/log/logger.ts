/**
 * JSON logs (pino) on stderr, so stdout carries only the machine-readable
 * `listening <face> <addr>` lines that scripts and tests parse.
 */
import { pino, type Logger } from 'pino';
/** The levels --log-level takes. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export function createLogger(level: LogLevel, fd = 2): Logger {
  return pino({ level, base: { svc: 'node' } }, pino.destination({ dest: fd, sync: true }));
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

const CLIENT_DISCONNECT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/**
 * An error that only says a client went away (reset, closed mid-request, or mid-response):
 * the client's doing, not the node's, so faces log it at debug, never at error.
 */
export function isClientDisconnect(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CLIENT_DISCONNECT_CODES.has(code) || code.startsWith('HPE_'))) return true;
  return message === 'aborted' || message === 'Parse Error' || message === 'socket hang up';
}
