/**
 * The gateway process's end of the channel to the sequencer process (frames.ts): send a
 * checked order or cancel, get its reply. Requests of one turn go in one write.
 *
 * Backpressure: at most `maxInflight` requests wait for a reply, shared fairly between
 * client addresses (dex FairShare: an address holding its share is refused, one under it
 * is taken); beyond that `send` refuses at once with 503 QUEUE_FULL (the HTTP face adds
 * Retry-After), so a gateway never queues without bound and one flooding address cannot
 * lock another out. When the channel closes (the sequencer process is gone or stopping) the
 * waiting requests get 503 UNAVAILABLE: none of them was acknowledged to its client.
 */
import { connect, type Socket } from 'node:net';
import { DexRefusal, FairShare } from '../../index.js';
import {
  decodeReply,
  encodeRequest,
  FrameReader,
  TurnWriter,
  type ChannelReply,
  type ChannelRequest,
  type RefusedReply,
} from './frames.js';
import { encodeBatchRequest, isTakenReply } from './batch-frames.js';

/** A batch's fate: refused whole (nothing taken), or taken with one reply per item, in order. */
export type BatchFate = { refused: RefusedReply } | { replies: Array<Promise<ChannelReply>> };

export class SequencerChannel {
  private readonly waiting = new Map<number, (r: ChannelReply) => void>();
  /** Batches waiting for their "taken" or whole refusal (batch-frames.ts), by batch id. */
  private readonly batches = new Map<number, (refused?: RefusedReply) => void>();
  private nextId = 1;
  private closed = false;
  private readonly out: TurnWriter;
  private readonly closeListeners: Array<() => void> = [];
  private readonly share: FairShare;

  private constructor(
    private readonly socket: Socket,
    maxInflight: number,
  ) {
    this.share = new FairShare(maxInflight);
    this.out = new TurnWriter((data) => {
      if (!socket.destroyed) socket.write(data);
    });
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk, (frame) => {
          if (isTakenReply(frame) || this.batches.has(frame.readUInt32LE(4))) return this.onBatchReply(frame);
          const reply = decodeReply(frame);
          const w = this.waiting.get(reply.id);
          if (w === undefined) return;
          this.waiting.delete(reply.id);
          w(reply);
        });
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => this.onClose());
  }

  static connect(path: string, maxInflight: number): Promise<SequencerChannel> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        resolve(new SequencerChannel(socket, maxInflight));
      });
    });
  }

  /** Requests waiting for their reply. */
  get inflight(): number {
    return this.waiting.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(listener: () => void): void;
  onClose(): void;
  onClose(listener?: () => void): void {
    if (listener) {
      this.closeListeners.push(listener);
      return;
    }
    if (this.closed) return;
    this.closed = true;
    const lost = [...this.waiting.entries()];
    this.waiting.clear();
    const batches = [...this.batches.entries()];
    this.batches.clear();
    for (const [id, b] of batches)
      b({
        type: 0,
        id,
        status: 503,
        code: 'UNAVAILABLE',
        message: 'the sequencer process went away before answering; nothing of this batch was acknowledged',
      });
    for (const [id, w] of lost)
      w({
        type: 0,
        id,
        status: 503,
        code: 'UNAVAILABLE',
        message: 'the sequencer process went away before answering; the order may or may not be sequenced',
      });
    for (const l of this.closeListeners) l();
  }

  /**
   * The refusal `send` would give a request from `from` now (shutting down, or the address
   * holding its share), or undefined: asked first, so a request refused for load costs no
   * signature check. Only a hint: `send` judges again.
   */
  refusal(from: string): DexRefusal | undefined {
    if (this.closed) return new DexRefusal('UNAVAILABLE', 'the order book is shutting down');
    return this.share.room(from) > 0 ? undefined : this.shareFull(from);
  }

  send(req: Omit<ChannelRequest, 'id'>): Promise<ChannelReply> {
    if (this.closed) return Promise.reject(new DexRefusal('UNAVAILABLE', 'the order book is shutting down'));
    if (!this.share.enter(req.from)) return Promise.reject(this.shareFull(req.from));
    const id = this.takeId();
    return new Promise<ChannelReply>((resolve) => {
      this.waiting.set(id, (reply) => {
        this.share.leave(req.from);
        resolve(reply);
      });
      this.out.push(encodeRequest({ ...req, id }));
    });
  }

  private shareFull(from: string): DexRefusal {
    const n = this.share.shareFor(from);
    return new DexRefusal(
      'QUEUE_FULL',
      `this client address already has ${n} orders waiting (its fair share of this gateway's ${this.share.maxPending}); retry later`,
    );
  }

  /**
   * Send a batch's checked items as one frame (batch-frames.ts). This gateway's share of
   * waiting requests must hold a place for every item (or the address hold nothing here),
   * else the whole batch is refused at once (503 QUEUE_FULL), as the node refuses it when
   * its own fair share has no room.
   */
  sendBatch(from: string, items: Array<Omit<ChannelRequest, 'id' | 'from'>>): Promise<BatchFate> {
    if (this.closed) return Promise.reject(new DexRefusal('UNAVAILABLE', 'the order book is shutting down'));
    // A batch takes a place per item, all or none; an address holding nothing here may send
    // one batch even where this gateway's part is under the batch (many gateways): the node
    // process's own fair share still judges it whole.
    const room = this.share.room(from);
    if (room < items.length && this.share.held(from) > 0) {
      const msg = `this batch needs ${items.length} places in this client address's share of this gateway's ${this.share.maxPending} waiting requests and ${room} are free; nothing of it was taken; retry later`;
      return Promise.reject(new DexRefusal('QUEUE_FULL', msg));
    }
    const batchId = this.takeId();
    const frames: Buffer[] = [];
    this.share.admit(from, items.length);
    const replies = items.map((it) => {
      const id = this.takeId();
      frames.push(encodeRequest({ ...it, from: '', id }));
      return new Promise<ChannelReply>((resolve) => {
        this.waiting.set(id, (reply) => {
          this.share.leave(from);
          resolve(reply);
        });
      });
    });
    const ids = frames.map((f) => f.readUInt32LE(4));
    return new Promise<BatchFate>((resolve) => {
      this.batches.set(batchId, (refused) => {
        if (refused === undefined) return resolve({ replies });
        for (const id of ids) if (this.waiting.delete(id)) this.share.leave(from);
        resolve({ refused });
      });
      this.out.push(encodeBatchRequest(batchId, from, frames));
    });
  }

  private onBatchReply(frame: Buffer): void {
    const id = frame.readUInt32LE(4);
    const b = this.batches.get(id);
    if (b === undefined) return;
    this.batches.delete(id);
    if (isTakenReply(frame)) return b();
    const reply = decodeReply(frame);
    b(
      reply.type === 0
        ? reply
        : { type: 0, id, status: 500, code: 'INTERNAL', message: 'the node answered a batch with an applied reply' },
    );
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_fff0 ? 1 : this.nextId + 1;
    return id;
  }

  close(): void {
    this.socket.end();
  }
}
