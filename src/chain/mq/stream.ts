/**
 * The JetStream side of the producer: create the stream if it is missing (with the replicas
 * asked for), check that an existing one captures the node's subjects, and read back its
 * last message.
 *
 * Only stream-level requests, which the stream's leader answers: stream info and the last
 * message by subject. Nothing here asks the cluster's meta leader (account info), except
 * creating a missing stream, so a resync never waits on a meta-leader election. An existing
 * stream is never edited: a replica count other than the one asked for is reported, not
 * changed (the operator's `nats stream edit` decides).
 */
import { JetStreamApiError, type JetStreamManager, type StreamConfig, type StreamInfo } from '@nats-io/jetstream';
import { MqConfigError } from './errors.js';
import type { LastMessage } from './resume.js';
import type { Subjects } from './subjects.js';

const STREAM_NOT_FOUND = 10059;
const NO_MESSAGE_FOUND = 10037;

/** The stream the node creates when none exists: file storage, keep everything, 2 min dedup window. */
export function defaultStreamConfig(names: Subjects, replicas = 1): Partial<StreamConfig> & { name: string } {
  return {
    name: names.stream,
    subjects: names.filters,
    storage: 'file' as StreamConfig['storage'],
    retention: 'limits' as StreamConfig['retention'],
    discard: 'old' as StreamConfig['discard'],
    duplicate_window: 120_000_000_000, // ns
    num_replicas: replicas,
  };
}

/** The stream as found (or created), and a warning when its replica count is not the one asked for. */
export interface EnsuredStream {
  info: StreamInfo;
  created: boolean;
  replicasNote?: string;
}

/**
 * `jsm` asks with the short resync timeout; `create` (a manager with a longer one) adds a
 * missing stream, since placing and electing a replicated stream takes the cluster a while.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  create: JetStreamManager,
  names: Subjects,
  replicas: number,
): Promise<EnsuredStream> {
  let info: StreamInfo;
  let created = false;
  try {
    info = await jsm.streams.info(names.stream);
  } catch (err) {
    if (!(err instanceof JetStreamApiError) || err.code !== STREAM_NOT_FOUND) throw err;
    try {
      info = await create.streams.add(defaultStreamConfig(names, replicas));
      created = true;
    } catch (addErr) {
      if (!(addErr instanceof JetStreamApiError)) throw addErr;
      const what = `creating JetStream stream ${names.stream} with ${replicas} replica(s)`;
      throw new MqConfigError(`${what} failed: ${addErr.message}`);
    }
  }
  const captured = info.config.subjects ?? [];
  const missing = names.filters.filter((f) => !captured.includes(f));
  if (missing.length > 0) {
    throw new MqConfigError(
      `JetStream stream ${names.stream} does not capture ${missing.join(', ')} (it has ${captured.join(', ') || 'no subjects'})`,
    );
  }
  if (info.config.discard === 'new') {
    throw new MqConfigError(
      `JetStream stream ${names.stream} has discard policy "new": once full it would refuse the node's messages; use "old"`,
    );
  }
  const has = info.config.num_replicas || 1;
  if (has === replicas) return { info, created };
  return {
    info,
    created,
    replicasNote:
      `JetStream stream ${names.stream} has ${has} replica(s), --mq-replicas asks for ${replicas}; ` +
      `the node does not change an existing stream (nats stream edit ${names.stream} --replicas ${replicas})`,
  };
}

/** The stream's last message at or before `lastSeq`, or undefined when it holds none. */
export async function readLastMessage(
  jsm: JetStreamManager,
  names: Subjects,
  info: StreamInfo,
): Promise<LastMessage | undefined> {
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
