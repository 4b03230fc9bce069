/**
 * How the node makes its Sequencer when it runs as a full node (--follow): the node's
 * sequencer options plus the follow settings, with the follower's events sent to the
 * node's log, a refused tick logged as a halt (the node keeps serving, the follower retries),
 * and a follower that cannot go on (its own store failed) reported to the node (which exits).
 */
import type { Logger } from 'pino';
import type { Sequencer, SequencerOptions } from '../sequencer/index.js';
import { Follower } from './follower.js';
import type { ChainSnapshotCode, FollowError } from './interface.js';

export interface FollowerFactoryOptions {
  leaders: string[]; // --follow, in order
  /** --follow-from snapshot: the chain's snapshot code to start with (src/node passes src/chain's); undefined: from tick 1. */
  fromSnapshot: ChainSnapshotCode | undefined;
  logger: Logger;
  onFatal(err: FollowError): void;
}

export function followerFactory(f: FollowerFactoryOptions): (o: SequencerOptions) => Sequencer {
  return (o) =>
    new Follower({
      leader: f.leaders[0]!,
      leaders: f.leaders,
      db: o.db,
      pool: o.pool,
      retainTicks: o.retainTicks,
      ...(f.fromSnapshot ? { fromSnapshot: f.fromSnapshot } : {}),
      ...(o.retainBytes !== undefined ? { retainBytes: o.retainBytes } : {}),
      onFatal: (err) => {
        f.logger.error({ err, tick: err.tickNumber, code: err.code }, 'follower stopped');
        f.onFatal(err);
      },
      onHalt: (err) =>
        f.logger.error(
          { err, tick: err.tickNumber, code: err.code },
          'follower halted: the leader served a tick this node refused; retrying',
        ),
      onError: (err) => f.logger.error({ err }, 'follower error'),
      onInfo: (fields, message) => f.logger.info(fields, message),
    });
}
