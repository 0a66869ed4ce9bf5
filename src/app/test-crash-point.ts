import type { DispatchPoint } from './dispatch-event.ts';

/**
 * The crash tests' hook: with `AGENT_MUX_TEST_CRASH_AT=<point>` in the environment, the process
 * SIGKILLs itself the first time a dispatch reaches that point (`after-take`, `after-decide`,
 * `after-dispatch`), as a power cut or the OOM killer would. Unset (always, outside those tests):
 * inert. Compiled in so that the tests crash the very code that runs in production.
 */
export function testCrashPoint(env: NodeJS.ProcessEnv = process.env): ((point: DispatchPoint) => void) | undefined {
  const at = env.AGENT_MUX_TEST_CRASH_AT;
  if (at === undefined || at === '') return undefined;
  return (point) => {
    if (point === at) process.kill(process.pid, 'SIGKILL');
  };
}
