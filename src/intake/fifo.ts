/**
 * A FIFO with O(1) push, indexed access and bulk removal from the front (an array with a
 * moving head, compacted when half of it is dead): the arrival line's slots, and the
 * sequencer's accepted transactions not yet in a durable tick, in sequence order.
 */
export class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** The i-th item from the front. */
  at(i: number): T {
    return this.items[this.head + i] as T;
  }

  /** Remove `n` items from the front. */
  drop(n: number): void {
    if (n > this.length) throw new RangeError('dropping more items than queued');
    for (let i = 0; i < n; i++) this.items[this.head + i] = undefined;
    this.head += n;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
