import type { RequestStop } from './stop-cause.ts';

/**
 * Arms the whole-run limit (`RunOptions.timeoutMs`, counted from `startedAt` across attempts): when it
 * passes, the run reports a `timeout` error and stops. Returns the function that disarms it.
 */
export function armTimeout(timeoutMs: number | undefined, startedAt: number, requestStop: RequestStop): () => void {
  if (timeoutMs === undefined) return () => undefined;
  const left = Math.max(0, timeoutMs - (Date.now() - startedAt));
  const timer = setTimeout(
    () =>
      requestStop({
        reason: 'timeout',
        shutdown: 'timeout',
        message: `timed out after ${timeoutMs} ms`,
        error: { code: 'timeout', message: `the run exceeded its ${timeoutMs} ms limit` },
      }),
    left,
  );
  return () => clearTimeout(timer);
}
