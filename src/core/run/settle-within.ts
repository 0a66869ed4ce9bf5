/**
 * Waits for `promise`, but no longer than `ms`: resolves with its value, or with `fallback` once the
 * time is up. The timer is cleared either way, so a finished wait never keeps the process alive.
 */
export async function settleWithin<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<F>((resolve) => {
    timer = setTimeout(resolve, ms, fallback);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
