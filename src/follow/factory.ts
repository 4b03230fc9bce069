/**
 * How the node makes its Sequencer when it runs as a full node (--follow): the node's
 * sequencer options plus the follow settings, with the follower's events sent to the
 * node's log, and a follower that stops for good reported to the node (which exits).
 */
import type { Logger } from 'pino';
import type { Sequencer, SequencerOptions } from '../sequencer/interface.js';
import { Follower } from './follower.js';
import type { FollowError } from './interface.js';

export interface FollowerFactoryOptions {
  leader: string; // --follow
  fromSnapshot: boolean; // --follow-from snapshot
  logger: Logger;
  onFatal(err: FollowError): void;
}

export function followerFactory(f: FollowerFactoryOptions): (o: SequencerOptions) => Sequencer {
  return (o) =>
    new Follower({
      leader: f.leader,
      db: o.db,
      pool: o.pool,
      retainTicks: o.retainTicks,
      fromSnapshot: f.fromSnapshot,
      ...(o.retainBytes !== undefined ? { retainBytes: o.retainBytes } : {}),
      onFatal: (err) => {
        f.logger.error({ err, tick: err.tickNumber, code: err.code }, 'follower stopped');
        f.onFatal(err);
      },
      onError: (err) => f.logger.error({ err }, 'follower error'),
      onInfo: (fields, message) => f.logger.info(fields, message),
    });
}
