import { REPO_CONFIG_PATH } from '../../config/load-repo-config.ts';
import { type PreparedWorkspace, prepareWorkspace } from '../../git/prepare-workspace.ts';
import { type ResolvedAgent, resolveAgentAdapter } from '../resolve-agent-adapter.ts';
import type { RunContext } from './plan-run.ts';
import type { RunTarget } from './run-target.ts';

/** What the agent starts with: its adapter, the checkout, its environment and program version. */
export interface PreparedAgent {
  resolved: ResolvedAgent;
  prepared: PreparedWorkspace;
  env: Record<string, string | undefined>;
  programVersion: string | undefined;
}

/**
 * Gets the agent ready: resolves its adapter, and, side by side, the front end's `prepare` (its
 * program installed) and the workspace on the target's commit with the files the agent reads as
 * instructions reset to the base. Throws the first failure.
 */
export async function prepareAgent(
  ctx: RunContext,
  target: Promise<RunTarget>,
  signal: AbortSignal,
): Promise<PreparedAgent> {
  const { options, job } = ctx;
  const resolved = resolveAgentAdapter({
    registry: options.registry,
    agentName: job.agentName,
    config: job.config,
    file: REPO_CONFIG_PATH,
  });
  const [program, workspace] = await Promise.allSettled([
    options.prepare ? options.prepare(signal, resolved.adapter) : Promise.resolve(undefined),
    target.then(({ pull, branch, headSha }) =>
      prepareWorkspace({
        cwd: options.workspace,
        remote: options.git.remote,
        token: options.git.token,
        adapter: resolved.adapter,
        target: pull
          ? {
              kind: 'pull',
              number: pull.number,
              headSha: pull.headSha,
              headRef: pull.headRef,
              baseRef: pull.baseRef,
              fromFork: pull.fromFork,
            }
          : branch
            ? { kind: 'branch', branch: branch.name, headSha: branch.headSha, defaultBranch: job.defaultBranch }
            : { kind: 'issue', defaultBranch: job.defaultBranch, headSha },
      }),
    ),
  ]);
  if (program.status === 'rejected') throw program.reason;
  if (workspace.status === 'rejected') throw workspace.reason;
  return {
    resolved,
    prepared: workspace.value,
    env: { ...options.env, ...program.value?.env },
    programVersion: program.value?.programVersion,
  };
}
