import type { ProgramInfo, SpawnPlan } from '../adapter/index.ts';
import type { FenceNetwork } from '../sandbox/index.ts';
import type { AttemptResult } from './attempt-result.ts';
import type { Child } from './child.ts';
import { terminateGroup, untrackGroup } from './process-group.ts';
import type { RunEmitter } from './run-emitter.ts';
import { settleWithin } from './settle-within.ts';

/** The plan's own clean-up (temporary config files); its failure is reported, never thrown. */
export async function runCleanup(plan: SpawnPlan | undefined, emitter: RunEmitter): Promise<void> {
  try {
    await plan?.cleanup?.();
  } catch (error) {
    emitter.emit({
      type: 'error',
      code: 'internal',
      message: `clean-up failed: ${(error as Error).message}`,
      recoverable: true,
    });
  }
}

/** The fence's own network could not be set up: the agent (still waiting for it) is stopped, the run fails. */
export async function networkFailed(
  why: string,
  run: { child: Child; pgid: number; network: FenceNetwork; plan: SpawnPlan; emitter: RunEmitter },
): Promise<AttemptResult> {
  await terminateGroup(run.pgid, 0);
  untrackGroup(run.pgid);
  await settleWithin(run.child.exited, 2000, undefined);
  await run.network.close();
  await runCleanup(run.plan, run.emitter);
  const message = `the run's fence could not set up its network, the agent was not started: ${why}`;
  run.emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
  return { reason: 'failed', message };
}

/** The fence's program (bubblewrap) is not installed: the run fails with that reason, never the agent's. */
export function fenceMissing(command: string, emitter: RunEmitter): AttemptResult {
  const message = `the run's fence needs ${command} (bubblewrap), which is not installed or not on PATH; install it (Debian/Ubuntu: apt-get install bubblewrap)`;
  emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
  return { reason: 'failed', message };
}

/** The agent's program is not installed: a crash whose message says how to install it. */
export function programMissing(command: string, program: ProgramInfo | undefined, emitter: RunEmitter): AttemptResult {
  const install = program?.install[0];
  const message = `${command} is not installed or not on PATH${install ? `; install it with: ${install.command}` : ''}`;
  emitter.emit({ type: 'error', code: 'program_missing', message, recoverable: false });
  emitter.emit({ type: 'crash', exitCode: null, signal: null, stderr: message });
  return { reason: 'crashed', message };
}
