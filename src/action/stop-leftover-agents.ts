import { readdir, readFile } from 'node:fs/promises';

/** The environment variable every agent process of an Action run carries (and its children inherit). */
export const RUN_MARKER_ENV = 'AGENT_MUX_ACTION_RUN';

/**
 * The marker of one step's agents: the run id, the job and a value of this step alone. The jobs of
 * one workflow run (a matrix) share its run id, and on a self-hosted runner they share the machine:
 * one job's post step must not kill another's agent.
 */
export function agentMarker(runId: string, job: string | undefined, unique: string): string {
  return `${runId}/${job ?? ''}/${unique}`;
}

/**
 * Kills the processes left behind by a main step that was killed before it could stop its agent:
 * those whose environment holds `AGENT_MUX_ACTION_RUN=<marker>` exactly (read from /proc; Linux
 * runners), or, with `prefix`, a marker that starts with `marker` (tests finding a run's agents).
 * Returns the pids it signalled. On systems without /proc it finds nothing.
 */
export async function stopLeftoverAgents(
  marker: string,
  signal: NodeJS.Signals = 'SIGKILL',
  options: { prefix?: boolean } = {},
): Promise<number[]> {
  const needle = Buffer.from(`${RUN_MARKER_ENV}=${marker}${options.prefix ? '' : '\0'}`);
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const environ = await readFile(`/proc/${pid}/environ`);
      if (!environ.includes(needle) && !environ.subarray(-needle.length + 1).equals(needle.subarray(0, -1))) continue;
      process.kill(pid, signal);
      killed.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return killed;
}
