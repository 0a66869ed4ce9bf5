/** The time source the reporter uses: the system's, or a fake one that tests and benchmarks advance by hand. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and the global timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A clock that only moves when told to. */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms`, running every timer that falls due, in due order (then creation order). */
  advance(ms: number): void;
  /** How many timers are waiting. */
  pendingTimers(): number;
}

interface FakeTimer {
  due: number;
  seq: number;
  fn: () => void;
}

/** A fake clock starting at `start` (default 0). Timers set while advancing run in the same `advance` when due. */
export function createFakeClock(start = 0): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, FakeTimer>();

  const nextDue = (limit: number): [number, FakeTimer] | undefined => {
    let best: [number, FakeTimer] | undefined;
    for (const entry of timers) {
      const timer = entry[1];
      if (timer.due > limit) continue;
      if (!best || timer.due < best[1].due || (timer.due === best[1].due && timer.seq < best[1].seq)) best = entry;
    }
    return best;
  };

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { due: now + Math.max(0, ms), seq: id, fn });
      return id;
    },
    clearTimeout(handle) {
      if (typeof handle === 'number') timers.delete(handle);
    },
    advance(ms) {
      const target = now + Math.max(0, ms);
      for (let entry = nextDue(target); entry; entry = nextDue(target)) {
        timers.delete(entry[0]);
        now = Math.max(now, entry[1].due);
        entry[1].fn();
      }
      now = target;
    },
    pendingTimers: () => timers.size,
  };
}
