/** Small waiting helpers of the producer's loop. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A level-triggered wake-up with a timeout: a notify() before wait() is not lost. */
export class Signal {
  private fired = false;
  private resolve: (() => void) | undefined;

  notify(): void {
    this.fired = true;
    const r = this.resolve;
    this.resolve = undefined;
    r?.();
  }

  /** Resolves at the next notify() (or at once if one came since the last wait), or after ms. */
  async wait(ms: number): Promise<void> {
    if (!this.fired) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        const self = this;
        function done() {
          clearTimeout(timer);
          if (self.resolve === done) self.resolve = undefined;
          resolve();
        }
        this.resolve = done;
      });
    }
    this.fired = false;
  }
}
