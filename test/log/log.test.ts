/** JSON logs: one JSON object per line on the given fd, filtered by --log-level. */
import { expect } from 'chai';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/log/index.js';

describe('node logs (pino)', () => {
  it('writes JSON lines at or above the configured level only', () => {
    const file = join(tmpdir(), `svc-log-${process.pid}-${Date.now()}.jsonl`);
    const fd = openSync(file, 'w');
    try {
      const log = createLogger('warn', fd);
      log.info('not shown');
      log.warn({ face: 'grpc' }, 'shown');
      log.error(new Error('boom'), 'failed');
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.msg)).to.deep.equal(['shown', 'failed']);
      expect(lines[0]).to.include({ level: 40, face: 'grpc', svc: 'node' });
      expect((lines[1]!.err as { message: string }).message).to.equal('boom');
      expect(lines[0]!.time).to.be.a('number');
    } finally {
      closeSync(fd);
      rmSync(file, { force: true });
    }
  });
});
