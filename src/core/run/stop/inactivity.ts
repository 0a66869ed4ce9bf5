import type { RequestStop } from './stop-cause.ts';

/** An armed inactivity limit: `activity` restarts it, `clear` disarms it. */
export interface InactivityWatch {
  activity(): void;
  clear(): void;
}

/**
 * Arms `RunOptions.inactivityTimeoutMs`: when the agent says nothing for that long, the run reports
 * an `inactivity` error and stops.
 */
export function armInactivity(idleMs: number | undefined, requestStop: RequestStop): InactivityWatch {
  if (idleMs === undefined) return { activity: () => undefined, clear: () => undefined };
  const timer = setTimeout(
    () =>
      requestStop({
        reason: 'inactivity',
        shutdown: 'inactivity',
        message: `no output for ${idleMs} ms`,
        error: { code: 'inactivity', message: `the agent printed nothing for ${idleMs} ms` },
      }),
    idleMs,
  );
  return { activity: () => timer.refresh(), clear: () => clearTimeout(timer) };
}
