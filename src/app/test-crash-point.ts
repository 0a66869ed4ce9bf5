import type { DispatchPoint } from './dispatch-event.ts';

/** Where the crash tests can kill the app: a point of a dispatch, or a run's just after its push. */
export type CrashPoint = DispatchPoint | 'after-push';

/**
 * The crash tests' hook: with `AGENT_MUX_TEST_CRASH_AT=<point>` in the environment, the process
 * SIGKILLs itself the first time a dispatch reaches that point (`after-take`, `after-decide`,
 * `after-dispatch`) or a run has pushed its commit (`after-push`: before the pull request and the
 * check run's conclusion), as a power cut or the OOM killer would. Unset (always, outside those
 * tests): inert. Compiled in so that the tests crash the very code that runs in production.
 */
export function testCrashPoint(env: NodeJS.ProcessEnv = process.env): ((point: CrashPoint) => void) | undefined {
  const at = env.AGENT_MUX_TEST_CRASH_AT;
  if (at === undefined || at === '') return undefined;
  return (point) => {
    if (point === at) process.kill(process.pid, 'SIGKILL');
  };
}
