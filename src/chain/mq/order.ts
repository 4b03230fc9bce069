/**
 * The publication order, as a pure walk over stored chain data: from a cursor, the next
 * messages to publish. Transactions go out as soon as they are stored (in continuum_sequence
 * order); block h goes out once it is stored and every one of its transactions has gone
 * out, and before any transaction of block h + 1. The same stored chain and cursor always
 * give the same messages, so a producer that restarts from the stream's last message
 * continues exactly where it stopped.
 */
import type { MqCursor, MqMessage, MqSource } from './interface.js';
import { blockMessage, txMessage, type Subjects } from './subjects.js';

export interface Plan {
  messages: MqMessage[];
  /** The cursor after all of `messages` are published. */
  cursor: MqCursor;
}

export class ChainOrderError extends Error {
  override name = 'ChainOrderError';
}

/** Up to `room` messages that follow `cursor`, reading only stored data. */
export async function planNext(
  source: MqSource,
  names: Subjects,
  cursor: MqCursor,
  room: number,
  maxPayload: number,
): Promise<Plan> {
  const messages: MqMessage[] = [];
  let { lastTx, nextHeight } = cursor;

  /**
   * Append block nextHeight if it is stored and all its transactions are out. Its last
   * entry may be a market creation (not a transaction, never published alone): then the
   * block's transactions are out when the next stored transaction is of a later block.
   * After the block the cursor is past all its entries, as when resuming after it.
   */
  const closeBlock = async (): Promise<boolean> => {
    if (nextHeight > source.latestHeight()) return false;
    const block = await source.block(nextHeight);
    if (!block) return false;
    if (block.lastContinuumSequence > lastTx) {
      const [next] = await source.transactionsAfter(lastTx, 1);
      if (next && next.height <= nextHeight) return false;
      lastTx = block.lastContinuumSequence;
    }
    messages.push(blockMessage(names, block, maxPayload));
    nextHeight += 1;
    return true;
  };

  while (messages.length < room) {
    const want = room - messages.length;
    const txs = await source.transactionsAfter(lastTx, want);
    let stalled = false;
    for (const tx of txs) {
      if (tx.continuumSequence <= lastTx) {
        throw new ChainOrderError(`transactions out of order: ${tx.continuumSequence} after ${lastTx}`);
      }
      if (tx.height < nextHeight) {
        throw new ChainOrderError(
          `transaction ${tx.id} of block ${tx.height} came after block ${nextHeight - 1} was published`,
        );
      }
      // A transaction of a later block: the blocks before it go first.
      while (tx.height > nextHeight && messages.length < room) {
        if (!(await closeBlock())) {
          stalled = true; // block not stored yet: wait for it
          break;
        }
      }
      if (stalled || tx.height > nextHeight || messages.length >= room) {
        stalled = true;
        break;
      }
      messages.push(txMessage(names, tx));
      lastTx = tx.continuumSequence;
      if (messages.length >= room) break;
    }
    if (stalled || messages.length >= room) break;
    if (txs.length < want) {
      // Every stored transaction is out: the current block may be stored already.
      if (!(await closeBlock())) break;
    }
  }
  return { messages, cursor: { lastTx, nextHeight } };
}
