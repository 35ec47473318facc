/**
 * An unbounded single-consumer queue that is also an async iterable: the engine pushes run events
 * as they happen; whoever iterates gets them in order, and the iteration ends when the run does.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private closed = false;
  private taken = false;
  private waiting: ((r: IteratorResult<T>) => void) | undefined;

  push(value: T): void {
    if (this.closed) return;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value, done: false });
    } else this.items.push(value);
  }

  close(): void {
    this.closed = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.taken) throw new Error('Run events can be iterated once');
    this.taken = true;
    return {
      next: () => {
        if (this.head < this.items.length) {
          const value = this.items[this.head] as T;
          this.items[this.head++] = undefined;
          // Drop the consumed front now and then, so a long run does not keep every event.
          if (this.head > 1024 && this.head * 2 > this.items.length) {
            this.items = this.items.slice(this.head);
            this.head = 0;
          }
          return Promise.resolve({ value, done: false });
        }
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        // The consumer stopped listening: keep no more events (the run itself goes on).
        this.closed = true;
        this.items = [];
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
