/** Waits `delayMs` before the next attempt; resolves early when any of `signals` aborts. */
export function waitRetry(delayMs: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, delayMs);
    const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    for (const signal of live) signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      for (const signal of live) signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
