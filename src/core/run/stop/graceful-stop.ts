import { settleWithin } from '../settle-within.ts';

/** One graceful stop: ask, wait a while for the agent to go, then force it. */
export interface GracefulStopOptions {
  /**
   * Asks the agent to stop by itself (a `shutdown` record, a session's `stop`) and returns what
   * settles once it has gone (its process exited, its stream ended); undefined when it cannot be asked.
   */
  ask(): Promise<unknown> | undefined;
  /** How long an asked agent may take. */
  waitMs: number;
  /** Ends what is left (signal the process group, abort the stream). */
  force(): unknown;
}

/**
 * The core's graceful stop, for processes, sessions and remote streams alike. Resolves true when
 * the agent went by itself within `waitMs`, false once it had to be forced.
 */
export async function gracefulStop(options: GracefulStopOptions): Promise<boolean> {
  const gone = options.ask();
  if (gone) {
    const inTime = await settleWithin(
      gone.then(() => true),
      options.waitMs,
      false,
    );
    if (inTime) return true;
  }
  await options.force();
  return false;
}
