/**
 * A list of live item listeners, for the sources: `onItem` adds one and returns its
 * removal; `emit` calls each in the order they were added.
 */
import type { ChannelItem, Unsubscribe } from './interface.js';

export class ItemListeners {
  private readonly list: Array<(key: string, item: ChannelItem) => void> = [];

  add(listener: (key: string, item: ChannelItem) => void): Unsubscribe {
    this.list.push(listener);
    return () => {
      const i = this.list.indexOf(listener);
      if (i >= 0) this.list.splice(i, 1);
    };
  }

  emit(key: string, item: ChannelItem): void {
    for (const l of this.list) l(key, item);
  }
}
