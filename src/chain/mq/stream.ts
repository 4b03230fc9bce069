/**
 * The JetStream side of the producer: create the stream if it is missing (or check that an
 * existing one captures the node's subjects), and read back its last message.
 */
import { JetStreamApiError, type JetStreamManager, type StreamConfig, type StreamInfo } from '@nats-io/jetstream';
import { MqConfigError } from './errors.js';
import type { LastMessage } from './resume.js';
import type { Subjects } from './subjects.js';

const STREAM_NOT_FOUND = 10059;
const NO_MESSAGE_FOUND = 10037;

/** The stream the node creates when none exists: file storage, keep everything, 2 min dedup window. */
export function defaultStreamConfig(names: Subjects): Partial<StreamConfig> & { name: string } {
  return {
    name: names.stream,
    subjects: names.filters,
    storage: 'file' as StreamConfig['storage'],
    retention: 'limits' as StreamConfig['retention'],
    discard: 'old' as StreamConfig['discard'],
    duplicate_window: 120_000_000_000, // ns
    num_replicas: 1,
  };
}

export async function ensureStream(jsm: JetStreamManager, names: Subjects): Promise<StreamInfo> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(names.stream);
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== STREAM_NOT_FOUND) throw err;
    info = await jsm.streams.add(defaultStreamConfig(names));
  }
  const captured = info.config.subjects ?? [];
  const missing = names.filters.filter((f) => !captured.includes(f));
  if (missing.length > 0) {
    throw new MqConfigError(`JetStream stream ${names.stream} does not capture ${missing.join(', ')} (it has ${captured.join(', ') || 'no subjects'})`);
  }
  if (info.config.discard === 'new') {
    throw new MqConfigError(`JetStream stream ${names.stream} has discard policy "new": once full it would refuse the node's messages; use "old"`);
  }
  return info;
}

/** The stream's last message at or before `lastSeq`, or undefined when it holds none. */
export async function readLastMessage(jsm: JetStreamManager, names: Subjects, info: StreamInfo): Promise<LastMessage | undefined> {
  if (info.state.messages === 0) return undefined;
  try {
    const m = await jsm.streams.getMessage(names.stream, { last_by_subj: `${names.prefix}.>` });
    if (!m) return undefined;
    return { seq: m.seq, subject: m.subject, data: m.data };
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === NO_MESSAGE_FOUND) return undefined;
    throw err;
  }
}
