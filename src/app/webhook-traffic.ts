/**
 * When this process last received a webhook, so that its dispatcher can let a burst of deliveries
 * be acknowledged first. On a machine with few cores the dispatch of each recorded comment (a few
 * tenths of a millisecond) competes with the acknowledgements for the same CPU: dispatching during
 * a burst doubled the app's CPU time per delivery there, and the acknowledgement tail with it.
 */
export interface WebhookTraffic {
  /** Notes a delivery being received now. */
  received(): void;
  /**
   * Resolves once no delivery arrived for the gap; at once when none arrived lately. A burst holds
   * callers `maxWaitMs` at most in all, counted from the first one it held: after that every caller
   * passes until a gap ends the burst, so a steady stream of deliveries costs the dispatcher one
   * wait, not one per event.
   */
  quiet(options: { maxWaitMs: number }): Promise<void>;
}

/** `gapMs`: how long without a delivery ends a burst. */
export function createWebhookTraffic(
  gapMs: number,
  now: () => number = performance.now.bind(performance),
): WebhookTraffic {
  let lastAt = Number.NEGATIVE_INFINITY;
  /** When the current burst first held a caller; undefined between bursts. */
  let heldSince: number | undefined;
  return {
    received() {
      const at = now();
      if (at - lastAt >= gapMs) heldSince = undefined; // a new burst: it may hold callers again
      lastAt = at;
    },
    async quiet({ maxWaitMs }) {
      for (;;) {
        const at = now();
        if (at - lastAt >= gapMs) {
          heldSince = undefined;
          return;
        }
        heldSince ??= at;
        const until = heldSince + maxWaitMs;
        if (at >= until) return;
        await new Promise((resolve) => setTimeout(resolve, Math.min(lastAt + gapMs, until) - at));
      }
    },
  };
}
