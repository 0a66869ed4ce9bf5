import type { ProcessLaunch, SpawnPlan } from '../adapter/index.ts';
import { separateTempDir } from '../env/separate-temp-dir.ts';
import { SpawnError } from '../errors/index.ts';
import { findOnPath } from '../host/find-on-path.ts';
import { type FenceNetwork, fenceCommand, openNetworkFor } from '../sandbox/index.ts';
import { expandArgs, expandEnv } from '../template/expand-template.ts';
import { templateVarsOf } from '../template/template-vars.ts';
import { fenceMissing, programMissing, runCleanup } from './attempt-failures.ts';
import type { AttemptResult } from './attempt-result.ts';
import type { Child } from './child.ts';
import { definedEnv } from './defined-env.ts';
import type { ProcessAttemptOptions } from './process-attempt.ts';
import { type SandboxCheck, startSandboxCheck } from './sandbox-check.ts';
import { spawnPipes } from './spawn-pipes.ts';
import { spawnPty } from './spawn-pty.ts';

/** An agent's program started: its plan, the child, its sandbox probe and its fence's network. */
export interface LaunchedProcess {
  kind: 'launched';
  plan: SpawnPlan;
  child: Child;
  sandbox: SandboxCheck | undefined;
  network: FenceNetwork | undefined;
}

/**
 * Starts the adapter's program: its plan (templates expanded, a temp dir of its own when its HOME
 * is under /tmp), inside the fence when there is one (its own network opened), after the agent's
 * own sandbox probe. A program that is missing, a probe that fails closed or a spawn that fails is
 * the attempt's result instead, its clean-up done.
 */
export async function launchProcess(options: ProcessAttemptOptions): Promise<LaunchedProcess | AttemptResult> {
  const { launch, ctx, emitter } = options;
  let plan: Awaited<ReturnType<ProcessLaunch['plan']>> | undefined;
  /** The fence's own program (bubblewrap) when the agent is started inside it. */
  let fenceProgram: string | undefined;
  /** The agent's own sandbox probe, when its plan has one. */
  let sandbox: SandboxCheck | undefined;
  /** The host's half of the fence's own network, when it has one. */
  let network: FenceNetwork | undefined;
  try {
    plan = await launch.plan(ctx);
    const vars = templateVarsOf(ctx);
    const expand = plan.expandTemplates === true;
    const args = expand ? expandArgs(plan.args, vars, ctx.env) : [...plan.args];
    const planEnv = expand ? expandEnv(plan.env ?? {}, vars, ctx.env) : (plan.env ?? {});
    const planned = { ...definedEnv(ctx.env), ...planEnv, ...(ctx.request.env ?? {}) };
    // A configuration inside the temp dir (a HOME under /tmp) gets a temp dir of its own: Codex's
    // sandbox helpers are refused otherwise. The file-system fence makes its own (`fenceCommand`).
    const separated = options.fence?.kind === 'filesystem' ? undefined : separateTempDir(planned);
    const env = separated?.env ?? planned;
    if (separated) {
      const own = plan.cleanup;
      plan = {
        ...plan,
        cleanup: async () => {
          separated.remove();
          await own?.();
        },
      };
    }
    const cwd = plan.cwd ?? ctx.request.cwd;
    const target = { command: plan.command, args, cwd, workspace: ctx.request.cwd, env };
    network = await openNetworkFor(options.fence, [...args, ...Object.values(env), ctx.mcpUrl]);
    const fenced = options.fence
      ? fenceCommand(
          options.fence,
          { ...target, planValues: [...args, ...Object.values(planEnv), ...(separated ? [separated.dir] : [])] },
          network?.inside,
        )
      : target;
    if (fenced.command !== plan.command) {
      fenceProgram = fenced.command;
      // Inside the fence a missing program is only bwrap's "execvp …: No such file" and exit 1:
      // look it up first, on the PATH the agent gets, so it is the same clear "not installed".
      if ((await findOnPath(plan.command, env.PATH ?? '/usr/local/bin:/usr/bin:/bin', { cwd })) === undefined) {
        await network?.close();
        await runCleanup(plan, emitter);
        return programMissing(plan.command, options.program, emitter);
      }
    }
    sandbox = startSandboxCheck(
      plan,
      { env, cwd, workspace: ctx.request.cwd, fence: options.fence },
      options.sandboxUnavailable ?? 'warn',
      options.signal,
    );
    const sandboxProblem = await sandbox.blocking;
    if (sandboxProblem) {
      await network?.close();
      await runCleanup(plan, emitter);
      const message = `not started (sandboxUnavailable: fail): ${sandboxProblem}`;
      emitter.emit({ type: 'notice', code: 'sandbox_unavailable', message: sandboxProblem });
      emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
      return { reason: 'failed', message };
    }
    const expanded = { ...plan, command: fenced.command, args: fenced.args };
    const child = plan.pty ? await spawnPty(expanded, fenced.env, cwd) : await spawnPipes(expanded, fenced.env, cwd);
    return { kind: 'launched', plan, child, sandbox, network };
  } catch (error) {
    await sandbox?.end();
    await network?.close();
    await runCleanup(plan, emitter);
    const missing =
      SpawnError.isInstance(error) && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    // Fenced, the program spawned is the fence's: its absence is not the agent's.
    if (missing && fenceProgram) return fenceMissing(fenceProgram, emitter);
    if (missing && plan) return programMissing(plan.command, options.program, emitter);
    const message = (error as Error).message;
    emitter.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
    return { reason: 'failed', message };
  }
}
