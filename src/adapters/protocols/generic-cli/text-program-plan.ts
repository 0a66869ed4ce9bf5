import type { LaunchContext, SpawnPlan } from '../../../core/adapter/index.ts';
import type { GenericCliAdapterConfig, GenericJobAdapterConfig } from '../../../core/config/index.ts';

/**
 * How a plain-text program of a plain-text profile (generic-cli `per-session`, generic-job) starts for one run:
 * its command line and `env`, in `work_dir` (empty: the run's `cwd`), the prompt written to stdin as one
 * line, every stdout line text.
 */
export function textProgramPlan(
  config: Pick<GenericCliAdapterConfig | GenericJobAdapterConfig, 'command' | 'args' | 'env' | 'work_dir'>,
  ctx: LaunchContext,
): SpawnPlan {
  return {
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.work_dir || undefined,
    stdin: `${ctx.request.prompt}\n`,
    // The configuration's args and env are the user's templates.
    expandTemplates: true,
    protocol: 'text',
  };
}
