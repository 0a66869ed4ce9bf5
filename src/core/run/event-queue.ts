/**
 * A single-consumer async queue. `push` never blocks; the producer is told through
 * `onPressure` when the unconsumed backlog crosses the high-water mark and when it falls
 * back under the low-water mark, so it can pause its source.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #closed = false;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #paused = false;
  readonly #high: number;
  readonly #low: number;
  readonly #onPressure: (paused: boolean) => void;

  constructor(options: { highWaterMark?: number; lowWaterMark?: number; onPressure?: (paused: boolean) => void } = {}) {
    this.#high = options.highWaterMark ?? 8192;
    this.#low = options.lowWaterMark ?? 1024;
    this.#onPressure = options.onPressure ?? (() => undefined);
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    if (!this.#paused && this.size > this.#high) {
      this.#paused = true;
      this.#onPressure(true);
    }
  }

  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    if (waiter && this.size === 0) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  #take(): IteratorResult<T> | undefined {
    if (this.size === 0) return this.#closed ? { value: undefined, done: true } : undefined;
    const value = this.#items[this.#head] as T;
    this.#head++;
    if (this.#head > 4096 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    if (this.#paused && this.size < this.#low) {
      this.#paused = false;
      this.#onPressure(false);
    }
    return { value, done: false };
  }

  next(): Promise<IteratorResult<T>> {
    const ready = this.#take();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: async () => {
        this.#closed = true;
        this.#items = [];
        this.#head = 0;
        if (this.#paused) {
          this.#paused = false;
          this.#onPressure(false);
        }
        return { value: undefined, done: true };
      },
    };
  }
}
