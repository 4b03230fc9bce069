/** The producer's own errors: each says which side failed, so the log says what to fix. */

/** An operator-side problem retrying will not fix by itself (the stream's config): logged as an error. */
export class MqConfigError extends Error {
  override name = 'MqConfigError';
}

/** The stored chain could not be read (LevelDB, or records out of order): not a NATS problem. */
export class MqSourceError extends Error {
  override name = 'MqSourceError';
}

/** The stream answered a publish but did not store it where it had to go (a duplicate, another sequence). */
export class MqRefusedError extends Error {
  override name = 'MqRefusedError';
}

/** The stream elected a new leader: the session's acks and requests went to the old one. */
export class MqElectionError extends Error {
  override name = 'MqElectionError';
}
