/**
 * JSON logs (pino) on stderr, so stdout carries only the machine-readable
 * `listening <face> <addr>` lines that scripts and tests parse.
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config/interface.js';

export type { Logger } from 'pino';

export function createLogger(level: LogLevel, fd = 2): Logger {
  return pino({ level, base: { svc: 'node' } }, pino.destination({ dest: fd, sync: true }));
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
