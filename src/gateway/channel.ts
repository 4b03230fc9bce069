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
import { ApiError, FairShare } from '../dex/index.js';
import { decodeReply, encodeRequest, FrameReader, TurnWriter, type ChannelReply, type ChannelRequest } from './frames.js';

export class SequencerChannel {
  private readonly waiting = new Map<number, (r: ChannelReply) => void>();
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
    for (const [id, w] of lost) w({ type: 0, id, status: 503, code: 'UNAVAILABLE', message: 'the sequencer process went away before answering; the order may or may not be sequenced' });
    for (const l of this.closeListeners) l();
  }

  send(req: Omit<ChannelRequest, 'id'>): Promise<ChannelReply> {
    if (this.closed) return Promise.reject(new ApiError(503, 'UNAVAILABLE', 'the order book is shutting down'));
    if (!this.share.enter(req.from)) {
      const n = this.share.shareFor(req.from);
      return Promise.reject(new ApiError(503, 'QUEUE_FULL', `this client address already has ${n} orders waiting (its fair share of this gateway's ${this.share.maxPending}); retry later`));
    }
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_fff0 ? 1 : this.nextId + 1;
    return new Promise<ChannelReply>((resolve) => {
      this.waiting.set(id, (reply) => {
        this.share.leave(req.from);
        resolve(reply);
      });
      this.out.push(encodeRequest({ ...req, id }));
    });
  }

  close(): void {
    this.socket.end();
  }
}
