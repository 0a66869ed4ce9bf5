import type { FenceOptions } from '../../core/sandbox/index.ts';
import type { FenceProbe } from '../../core/sandbox/probe-fence.ts';
import { UsageError } from '../usage-error.ts';

/** What `agent-mux run --fence` decided: the fence to run in, and a line to tell the user, if any. */
export interface CliFence {
  fence: FenceOptions | undefined;
  note?: string;
}

/** The CLI's fence: the agent in its own PID namespace over the user's own file system (the user's own authority). */
export const CLI_FENCE: FenceOptions = { kind: 'processes' };

/**
 * `--fence auto` (default): the agent runs in its own PID namespace where bubblewrap works, so that
 * everything it started ends with the run, also what it detached (`setsid`, double forks); where it
 * does not, the run goes on unfenced and says what that does not promise. `on`: no run without the
 * fence. `off`: no fence, no note.
 */
export async function decideCliFence(
  mode: string,
  probe: (fence: FenceOptions) => Promise<FenceProbe>,
): Promise<CliFence> {
  if (!['auto', 'on', 'off'].includes(mode)) throw new UsageError('--fence takes auto, on or off');
  if (mode === 'off') return { fence: undefined };
  const probed = await probe(CLI_FENCE);
  if (probed.ok) return { fence: CLI_FENCE };
  if (mode === 'on') throw new UsageError(`--fence on: the fence (bubblewrap) does not work here: ${probed.message}`);
  return {
    fence: undefined,
    note: `agent-mux: no fence (${probed.message}); the agent's process group is stopped at the end, but a process it detached from the group (setsid) can outlive the run. Install bubblewrap for the fence, or pass --fence off to silence this.`,
  };
}
