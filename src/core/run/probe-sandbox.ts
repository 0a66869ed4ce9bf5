import { execa } from 'execa';
import type { SpawnPlan } from '../adapter/index.ts';
import { type FenceOptions, fenceCommand } from '../sandbox/index.ts';

/** Most characters of the probe's output kept in the notice. */
const MAX_DETAIL = 600;

/**
 * Runs the plan's sandbox probe as the agent would run (its environment and working directory,
 * inside the same fence). Returns the notice's message when it failed, undefined when it passed.
 * Never throws: a probe that cannot start fails with the reason.
 */
export async function probeSandbox(
  plan: SpawnPlan,
  run: { env: Record<string, string>; cwd: string; workspace: string; fence?: FenceOptions; signal?: AbortSignal },
): Promise<string | undefined> {
  const probe = plan.sandboxProbe;
  if (!probe) return undefined;
  const target = {
    command: probe.command ?? plan.command,
    args: [...probe.args],
    cwd: run.cwd,
    workspace: run.workspace,
    env: run.env,
  };
  const fenced = run.fence ? fenceCommand(run.fence, target) : target;
  const result = await execa(fenced.command, fenced.args, {
    env: fenced.env,
    extendEnv: false,
    cwd: run.cwd,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: 20_000,
    ...(run.signal ? { cancelSignal: run.signal } : {}),
  });
  if (result.exitCode === 0) return undefined;
  const printed = String(result.all ?? '').trim() || String(result.message ?? 'no output');
  const detail = printed.length > MAX_DETAIL ? `…${printed.slice(-MAX_DETAIL)}` : printed;
  return `${probe.what} does not work here (\`${[target.command, ...target.args].join(' ')}\` failed: ${detail}). ${probe.fix}.`;
}
