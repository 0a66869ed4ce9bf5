import type { Clock } from './clock.ts';

/** Options of `createCoalescer`. */
export interface CoalescerOptions<T> {
  /** The least time between the starts of two writes, in milliseconds. */
  intervalMs: number;
  clock: Clock;
  /** Writes one value; a rejection goes to `onError` and the value is tried again on the next tick. */
  write: (value: T) => Promise<void>;
  /** Receives every failed write's error; default: ignored. */
  onError?: (error: unknown) => void;
}

/** Rate-limited latest-value writer. */
export interface Coalescer<T> {
  /** Offers a new value: written at once if the interval has passed, else on the next tick (only the newest value is). */
  push(value: T): void;
  /** Writes the newest pushed value now (after any write in flight); resolves when written or failed. */
  flush(): Promise<void>;
  /** Waits for a write in flight, then drops any pending value; nothing is written after. Call `flush` first to keep it. */
  close(): Promise<void>;
}

/**
 * Writes the newest of a stream of values at most once per `intervalMs`, whatever the push rate:
 * the first push writes at once, later ones wait for the interval, values in between are replaced
 * by newer ones. There is never more than one write in flight.
 */
export function createCoalescer<T>(options: CoalescerOptions<T>): Coalescer<T> {
  const { intervalMs, clock, write } = options;
  const onError = options.onError ?? (() => undefined);
  let pending: { value: T } | undefined;
  let inFlight: Promise<void> | undefined;
  let lastStart: number | undefined;
  let timer: unknown;
  let closed = false;

  const cancelTimer = () => {
    if (timer === undefined) return;
    clock.clearTimeout(timer);
    timer = undefined;
  };

  const start = (): Promise<void> => {
    const entry = pending!;
    pending = undefined;
    lastStart = clock.now();
    let attempt: Promise<void>;
    try {
      attempt = write(entry.value);
    } catch (error) {
      attempt = Promise.reject(error);
    }
    const done = attempt.then(
      () => undefined,
      (error: unknown) => {
        pending ??= entry;
        try {
          onError(error);
        } catch {
          // A throwing error handler must not stop the writer.
        }
      },
    );
    inFlight = done.then(() => {
      inFlight = undefined;
      schedule();
    });
    return inFlight;
  };

  const schedule = () => {
    if (closed || pending === undefined || inFlight !== undefined || timer !== undefined) return;
    const wait = lastStart === undefined ? 0 : lastStart + intervalMs - clock.now();
    if (wait <= 0) {
      void start();
      return;
    }
    timer = clock.setTimeout(() => {
      timer = undefined;
      schedule();
    }, wait);
  };

  return {
    push(value) {
      if (closed) return;
      pending = { value };
      schedule();
    },
    async flush() {
      while (inFlight !== undefined) await inFlight;
      if (closed || pending === undefined) return;
      cancelTimer();
      await start();
    },
    async close() {
      closed = true;
      cancelTimer();
      while (inFlight !== undefined) await inFlight;
      pending = undefined;
    },
  };
}
