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
   * Resolves once no delivery arrived for `gapMs`, or after `maxWaitMs` in all (a steady stream of
   * deliveries never starves the caller); at once when none arrived lately.
   */
  quiet(options: { gapMs: number; maxWaitMs: number }): Promise<void>;
}

export function createWebhookTraffic(now: () => number = performance.now.bind(performance)): WebhookTraffic {
  let lastAt = Number.NEGATIVE_INFINITY;
  return {
    received() {
      lastAt = now();
    },
    async quiet({ gapMs, maxWaitMs }) {
      const until = now() + maxWaitMs;
      for (;;) {
        const wait = Math.min(lastAt + gapMs, until) - now();
        if (wait <= 0) return;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
  };
}
