import { readlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FenceOptions, FenceProbe } from '../core/sandbox/index.ts';
import { isInside } from '../core/tools/builtin/workspace-path.ts';

/** How the Action fences the agent (input `fence`): `auto` (the default) or `off`, chosen explicitly. */
export type FenceMode = 'auto' | 'off';

/** What the Action decided. */
export type RunnerFence =
  | { kind: 'fenced'; fence: FenceOptions; notes: string[] }
  /** `fence: off`: the workflow chose to run the agent unfenced. */
  | { kind: 'off'; warning: string }
  /** No working fence and no opt-out: the agent is not started (fail closed). */
  | { kind: 'refused'; reason: string };

/** What deciding needs (the real ones in `run.ts`, stand-ins in tests). */
export interface RunnerFenceDeps {
  /** The absolute path of `bwrap` on the step's PATH, if any. */
  findBwrap(): Promise<string | undefined>;
  probe(fence: FenceOptions): Promise<FenceProbe>;
  /** `sudo -n <args>`; never throws. */
  sudo(args: readonly string[]): Promise<{ ok: boolean; output: string }>;
  log(line: string): void;
  /** The directory of agent-mux's own code (the action's checkout under `_actions`). */
  actionRoot: string;
  /** The runner's own directory (from `Runner.Worker`), when found. */
  runnerRoot?: string;
}

/**
 * The fence of the Action's agent on a runner (one job per machine): a PID namespace over the
 * runner's file system (nothing it starts outlives it; agent-mux's `/proc/<pid>/environ` is not
 * there; bubblewrap's `no_new_privs` keeps `sudo` from running as root), in which
 * - the runner's file-command files (`GITHUB_ENV`, `GITHUB_PATH`, `GITHUB_OUTPUT`, `GITHUB_STATE`,
 *   the step summary), all under `RUNNER_TEMP`, and the runner's own directory (its credentials and
 *   logs) are hidden;
 * - the actions the job downloaded (`_actions`: agent-mux's own post step among them), agent-mux's
 *   own code and the tool cache later steps use are read-only;
 * - `/tmp` is its own;
 * - the checkout and HOME stay writable.
 */
export function runnerFenceOptions(
  env: NodeJS.ProcessEnv,
  bwrap: string,
  deps: Pick<RunnerFenceDeps, 'actionRoot' | 'runnerRoot'>,
): FenceOptions {
  const workspace = env.GITHUB_WORKSPACE ?? '';
  const hidden: string[] = [];
  const readOnly: string[] = [];
  if (env.RUNNER_TEMP) {
    hidden.push(env.RUNNER_TEMP);
    readOnly.push(join(dirname(env.RUNNER_TEMP), '_actions'));
  }
  if (deps.runnerRoot) hidden.push(deps.runnerRoot);
  // A local action (`uses: ./`) is the checkout itself: the agent works on it like any file.
  if (!workspace || !isInside(deps.actionRoot, workspace)) readOnly.push(deps.actionRoot);
  if (env.RUNNER_TOOL_CACHE) readOnly.push(env.RUNNER_TOOL_CACHE);
  // A HOME under /tmp (not a runner's) stays the agent's.
  const readWrite = env.HOME && isInside('/tmp', env.HOME) ? [env.HOME] : [];
  return { kind: 'processes', bwrap, hidden, readOnly, readWrite, privateTmp: true };
}

/**
 * Decides how the agent runs. With `auto`: fenced (`runnerFenceOptions`) when bubblewrap works. On
 * a GitHub-hosted runner (an ephemeral VM: `RUNNER_ENVIRONMENT=github-hosted`) agent-mux makes it
 * work: it installs bubblewrap when missing and lifts Ubuntu 24.04's AppArmor restriction of
 * unprivileged user namespaces (`kernel.apparmor_restrict_unprivileged_userns=0`), both with the
 * runner's passwordless sudo. On a self-hosted runner it never changes the host: it probes and
 * reports. Without a working fence the agent is not started, with the reason (fail closed), unless
 * the workflow set `fence: off`.
 */
export async function decideRunnerFence(
  env: NodeJS.ProcessEnv,
  mode: FenceMode,
  deps: RunnerFenceDeps,
): Promise<RunnerFence> {
  if (mode === 'off') {
    return {
      kind: 'off',
      warning:
        'agent-mux: fence: off — the agent runs unfenced: it can read agent-mux’s environment (the GitHub token) through /proc, change the runner’s files and later steps, and use sudo',
    };
  }
  const hosted = env.RUNNER_ENVIRONMENT === 'github-hosted';
  const notes: string[] = [];
  let bwrap = await deps.findBwrap();
  if (!bwrap && hosted) {
    deps.log('agent-mux: installing bubblewrap (apt-get) for the agent’s fence');
    const installed = await deps.sudo(['apt-get', 'install', '-y', '-qq', 'bubblewrap']);
    if (!installed.ok) {
      await deps.sudo(['apt-get', 'update', '-qq']);
      await deps.sudo(['apt-get', 'install', '-y', '-qq', 'bubblewrap']);
    }
    bwrap = await deps.findBwrap();
    if (bwrap) notes.push('installed bubblewrap');
  }
  if (!bwrap) {
    return { kind: 'refused', reason: refusal('bubblewrap (bwrap) is not installed', hosted) };
  }
  const fence = runnerFenceOptions(env, bwrap, deps);
  let probe = await deps.probe(fence);
  if (!probe.ok && hosted) {
    const lifted = await deps.sudo(['sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0']);
    if (lifted.ok) {
      notes.push(
        'lifted the AppArmor restriction of unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=0)',
      );
      probe = await deps.probe(fence);
    } else {
      deps.log(`agent-mux: could not lift the AppArmor restriction: ${lifted.output.trim()}`);
    }
  }
  if (!probe.ok)
    return { kind: 'refused', reason: refusal(`bubblewrap does not work here (${probe.message})`, hosted) };
  return { kind: 'fenced', fence, notes };
}

function refusal(what: string, hosted: boolean): string {
  const fix = hosted
    ? 'agent-mux could not make it work with the runner’s sudo'
    : 'on a self-hosted runner agent-mux does not change the host: install bubblewrap and allow unprivileged user namespaces (Ubuntu 24.04: sysctl kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap)';
  return `the agent was not started: its fence cannot be set up, ${what}; ${fix}, or set the input fence: off to run it unfenced (see docs/security.md)`;
}

/** The runner's own directory: the grandparent of `Runner.Worker`, the step's parent process. */
export function findRunnerRoot(ppid: number = process.ppid): string | undefined {
  try {
    const exe = readlinkSync(`/proc/${ppid}/exe`);
    return basename(exe) === 'Runner.Worker' ? dirname(dirname(exe)) : undefined;
  } catch {
    return undefined;
  }
}
