/**
 * Gives each webhook delivery's work (signature, parse, record, answer) a turn of the event loop of
 * its own while a burst lasts. See `createDeliveryTurns`.
 */
export interface DeliveryTurns {
  /** Resolves when the caller may work its delivery: at once when none was worked in this turn. */
  take(): Promise<void>;
  /** Deliveries waiting for a turn now. */
  waiting(): number;
}

/**
 * Node accepts one new connection per turn of its event loop, and a turn first serves every request
 * already readable on the connections it accepted before. When a burst opens many connections at
 * once, the last of them waits in the kernel's accept queue while the earlier ones are served again
 * and again: with 20 connections its first delivery waits for about 190 deliveries' work, the p99
 * of `bench/app-busy.bench.ts` (90–125 ms with a warm sender). Working at most one delivery per turn
 * keeps each turn short, so every waiting connection is accepted within a few milliseconds and the
 * deliveries of all connections are worked in the order they arrived.
 *
 * Between bursts a delivery is worked at once; the pacing costs it nothing.
 */
export function createDeliveryTurns(): DeliveryTurns {
  const queue: (() => void)[] = [];
  /**
   * Whether the next turn is scheduled: set exactly when a delivery was worked in the current turn
   * (a waiting delivery always has one scheduled), cleared when that turn comes.
   */
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setImmediate(turn);
  };
  function turn(): void {
    scheduled = false;
    const next = queue.shift();
    if (next === undefined) return;
    next();
    schedule();
  }
  return {
    take() {
      if (!scheduled) {
        schedule();
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => queue.push(resolve));
    },
    waiting: () => queue.length,
  };
}
