import type { Clock } from './clock.ts';

/** Options of `createCoalescer`. */
export interface CoalescerOptions {
  /** The least time between the starts of two writes, in milliseconds (read before each wait when a function). */
  intervalMs: number | (() => number);
  clock: Clock;
  /**
   * Writes the newest state (the writer reads it itself, when the write starts); a rejection goes to
   * `onError` and the write is tried again on the next tick.
   */
  write: () => Promise<void>;
  /** Receives every failed write's error; default: ignored. */
  onError?: (error: unknown) => void;
}

/** Rate-limited writer of the newest state. */
export interface Coalescer {
  /** Says the state changed: written at once if the interval has passed, else on the next tick (once for all changes in between). */
  push(): void;
  /** Writes the newest state now if it changed (after any write in flight); resolves when written or failed. */
  flush(): Promise<void>;
  /** Waits for a write in flight, then drops any pending change; nothing is written after. Call `flush` first to keep it. */
  close(): Promise<void>;
}

/**
 * Writes the newest state at most once per `intervalMs`, whatever the rate of changes: the first
 * push writes at once, later ones wait for the interval, changes in between are written together by
 * one write (which reads the state when it starts). There is never more than one write in flight.
 */
export function createCoalescer(options: CoalescerOptions): Coalescer {
  const { intervalMs, clock, write } = options;
  const onError = options.onError ?? (() => undefined);
  let pending = false;
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
    pending = false;
    lastStart = clock.now();
    let attempt: Promise<void>;
    try {
      attempt = write();
    } catch (error) {
      attempt = Promise.reject(error);
    }
    const done = attempt.then(
      () => undefined,
      (error: unknown) => {
        pending = true;
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
    if (closed || !pending || inFlight !== undefined || timer !== undefined) return;
    const interval = typeof intervalMs === 'number' ? intervalMs : intervalMs();
    const wait = lastStart === undefined ? 0 : lastStart + interval - clock.now();
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
    push() {
      if (closed) return;
      pending = true;
      schedule();
    },
    async flush() {
      while (inFlight !== undefined) await inFlight;
      if (closed || !pending) return;
      cancelTimer();
      await start();
    },
    async close() {
      closed = true;
      cancelTimer();
      while (inFlight !== undefined) await inFlight;
      pending = false;
    },
  };
}
