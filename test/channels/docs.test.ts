/**
 * The channels' contract documents say what the code does: every refusal code and close
 * code, the path and the default limits are in docs/chain.md "Channels" and in
 * docs/channels.asyncapi.yaml.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CHANNELS_PATH, CLOSE, DEFAULT_LIMITS, REFUSAL_CODES } from '../../src/channels/index.js';

const root = new URL('../../../', import.meta.url);
const chainMd = readFileSync(new URL('docs/chain.md', root), 'utf8');
const section = chainMd.slice(chainMd.indexOf('## Channels'), chainMd.indexOf('## gRPC'));
const asyncapi = readFileSync(new URL('docs/channels.asyncapi.yaml', root), 'utf8');

describe('channels: the documents match the code', () => {
  it('names the path, every refusal code and every close code', () => {
    expect(section).to.include(`WS ${CHANNELS_PATH}\``);
    expect(asyncapi).to.include(`address: ${CHANNELS_PATH}\n`);
    for (const code of REFUSAL_CODES) {
      expect(section, code).to.include(`\`${code}\``);
      expect(asyncapi, code).to.include(code);
    }
    for (const code of Object.values(CLOSE)) {
      expect(section, String(code)).to.include(`| ${code} |`);
      expect(asyncapi, String(code)).to.include(String(code));
    }
  });

  it('states the default limits', () => {
    const l = DEFAULT_LIMITS;
    expect(section).to.include(`| subscriptions per socket | ${l.subscriptions} |`);
    expect(section).to.include(`| sockets per client address | ${l.socketsPerAddress} |`);
    expect(section).to.include(`| sockets on the node | ${l.sockets.toLocaleString('en-US')} |`);
    expect(section).to.include(`| client frame | ${l.messageBytes / 1024} KiB |`);
    expect(section).to.include(
      `| client messages per socket | ${l.messagesPerSecond}/s, bursts of ${l.messagesPerSecond * 2} |`,
    );
    expect(section).to.include(`| error answers per socket | ${l.refusals} |`);
    expect(section).to.include(`| send queue per socket (bytes not yet sent) | ${l.queueBytes / 1024 / 1024} MiB |`);
    expect(section).to.include(`| send queue at which a book subscriber is behind | ${l.coalesceBytes / 1024} KiB |`);
    expect(section).to.include(`| replay waiting for the client to read | ${l.replayStallMs / 1000} s |`);
    expect(section).to.include(`every ${l.heartbeatMs / 1000} s`);
    expect(asyncapi).to.include(`heartbeat_ms: { type: integer, const: ${l.heartbeatMs} }`);
    expect(asyncapi).to.include(`queue_bytes: { type: integer, const: ${l.queueBytes} }`);
  });
});
