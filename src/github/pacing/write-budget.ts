import { AsyncLocalStorage } from 'node:async_hooks';
import { type Clock, systemClock } from './clock.ts';

/** Live updates per run that share a budget: its check run and its tracking comment. */
const LIVE_WRITERS_PER_RUN = 2;
/** Room left in the live share when intervals are stretched, so that live updates do not queue up. */
const STRETCH_HEADROOM = 1.5;

/** Options of `WriteBudget`. */
export interface WriteBudgetOptions {
  /**
   * Least time between the starts of two live updates of this budget, all its runs together.
   * Default 1500 ms: live updates take at most two thirds of the about one write a second that
   * GitHub allows an installation (Probot's write throttle keeps to it), the rest is the first feedback's.
   */
  liveSpacingMs?: number;
  /** A live update that waited this long goes even while urgent writes are pending (none starves). Default 20 000 ms. */
  maxLiveWaitMs?: number;
  /** Default: the system clock. */
  clock?: Clock;
}

/** What a run's reporter needs of a budget: a slot for each live update and the interval to keep. */
export interface LiveWrites {
  /**
   * Runs a live update when the budget lets it: after the urgent writes pending, one live update at
   * a time, `liveSpacingMs` apart. With `signal` aborted before it started, it is dropped (resolves).
   */
  live(write: () => Promise<void>, signal?: AbortSignal): Promise<void>;
  /** The least interval one live writer of a run keeps: its own `baseMs`, stretched with the runs in flight. */
  liveIntervalMs(baseMs: number): number;
}

interface Queued {
  write: () => Promise<void>;
  since: number;
  settle: () => void;
  fail: (error: unknown) => void;
  signal: AbortSignal | undefined;
}

/** The live update running now, so that its own GitHub calls are not counted as urgent. */
const liveWrite = new AsyncLocalStorage<WriteBudget>();

/**
 * The GitHub write budget of the runs that share one installation. Writes are of two kinds:
 *
 * - **urgent** (`urgent`): first feedback and results (the 👀 reaction, a run's check run and tracking
 *   comment, approval requests, the final result, pull requests): they never wait for live updates;
 * - **live** (`live`): a running run's check-run and tracking-comment updates. They wait while an
 *   urgent write is pending (at most `maxLiveWaitMs`), go one at a time, `liveSpacingMs` apart, in the
 *   order asked; so at most one live update is ever queued in the GitHub client ahead of an urgent write.
 *
 * With `runs` runs in flight each live writer keeps at least `runs × 2 × liveSpacingMs × 1.5` between
 * two of its updates (`liveIntervalMs`), so the live updates of all runs fit in the live share and a
 * check run is at most about that interval behind (22.5 s with 5 runs at the default spacing).
 */
export class WriteBudget implements LiveWrites {
  readonly #spacingMs: number;
  readonly #maxWaitMs: number;
  readonly #clock: Clock;
  readonly #queue: Queued[] = [];
  #runs = 0;
  #urgent = 0;
  #busy = false;
  #lastStart = Number.NEGATIVE_INFINITY;
  #timer: unknown;

  constructor(options: WriteBudgetOptions = {}) {
    this.#spacingMs = Math.max(0, options.liveSpacingMs ?? 1500);
    this.#maxWaitMs = Math.max(0, options.maxLiveWaitMs ?? 20_000);
    this.#clock = options.clock ?? systemClock;
  }

  /** Runs in flight on this budget. */
  get runs(): number {
    return this.#runs;
  }

  /** Urgent writes pending now. */
  get urgentPending(): number {
    return this.#urgent;
  }

  /** Counts a run in flight until the returned function is called (once). */
  run(): () => void {
    this.#runs++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#runs--;
    };
  }

  /** Runs a write that goes ahead of live updates; a call made by a live update itself is not counted. */
  async urgent<T>(write: () => Promise<T>): Promise<T> {
    if (liveWrite.getStore() === this) return write();
    this.#urgent++;
    try {
      return await write();
    } finally {
      this.#urgent--;
      this.#pump();
    }
  }

  live(write: () => Promise<void>, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((settle, fail) => {
      const entry: Queued = { write, since: this.#clock.now(), settle, fail, signal };
      this.#queue.push(entry);
      signal?.addEventListener(
        'abort',
        () => {
          const at = this.#queue.indexOf(entry);
          if (at === -1) return;
          this.#queue.splice(at, 1);
          settle();
        },
        { once: true },
      );
      this.#pump();
    });
  }

  liveIntervalMs(baseMs: number): number {
    return Math.max(baseMs, this.#runs * LIVE_WRITERS_PER_RUN * this.#spacingMs * STRETCH_HEADROOM);
  }

  /** Starts the next live update if it may go now, else waits (a timer, or the end of an urgent write). */
  #pump(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const head = this.#queue[0];
    if (this.#busy || head === undefined) return;
    const now = this.#clock.now();
    const starvedAt = head.since + this.#maxWaitMs;
    if (this.#urgent > 0 && now < starvedAt) {
      this.#later(starvedAt - now);
      return;
    }
    const spaced = this.#lastStart + this.#spacingMs;
    if (now < spaced) {
      this.#later(spaced - now);
      return;
    }
    this.#queue.shift();
    this.#busy = true;
    this.#lastStart = now;
    let attempt: Promise<void>;
    try {
      attempt = liveWrite.run(this, head.write);
    } catch (error) {
      attempt = Promise.reject(error);
    }
    attempt.then(head.settle, head.fail).finally(() => {
      this.#busy = false;
      this.#pump();
    });
  }

  #later(ms: number): void {
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#pump();
    }, ms);
  }
}
