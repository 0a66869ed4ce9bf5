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
   * Resolves once no delivery arrived for `gapMs`; at once when none arrived lately. A burst holds
   * callers `maxWaitMs` at most in all, counted from the first one it held: after that every caller
   * passes until a gap ends the burst, so a steady stream of deliveries costs the dispatcher one
   * wait, not one per event.
   */
  quiet(): Promise<void>;
}

/**
 * The app's setting: a burst ends after 20 ms without a delivery and holds the dispatcher 250 ms at
 * most (a mention behind it gets its 👀 that much later at worst).
 */
export const ACKS_FIRST = { gapMs: 20, maxWaitMs: 250 } as const;

export function createWebhookTraffic(
  { gapMs, maxWaitMs }: { gapMs: number; maxWaitMs: number } = ACKS_FIRST,
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
    async quiet() {
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
