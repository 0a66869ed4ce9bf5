import type { RequestStop } from './stop-cause.ts';

/**
 * An armed inactivity limit: `activity` restarts it, `clear` disarms it; `hold` stops it until
 * `release` (a paused agent is silent by design).
 */
export interface InactivityWatch {
  activity(): void;
  clear(): void;
  hold(): void;
  release(): void;
}

/**
 * Arms `RunOptions.inactivityTimeoutMs`: when the agent says nothing for that long, the run reports
 * an `inactivity` error and stops.
 */
export function armInactivity(idleMs: number | undefined, requestStop: RequestStop): InactivityWatch {
  if (idleMs === undefined) {
    return { activity: () => undefined, clear: () => undefined, hold: () => undefined, release: () => undefined };
  }
  const expire = () =>
    requestStop({
      reason: 'inactivity',
      shutdown: 'inactivity',
      message: `no output for ${idleMs} ms`,
      error: { code: 'inactivity', message: `the agent printed nothing for ${idleMs} ms` },
    });
  let timer: NodeJS.Timeout | undefined = setTimeout(expire, idleMs);
  let cleared = false;
  return {
    activity: () => timer?.refresh(),
    clear: () => {
      cleared = true;
      clearTimeout(timer);
      timer = undefined;
    },
    hold: () => {
      clearTimeout(timer);
      timer = undefined;
    },
    release: () => {
      if (!cleared && timer === undefined) timer = setTimeout(expire, idleMs);
    },
  };
}
