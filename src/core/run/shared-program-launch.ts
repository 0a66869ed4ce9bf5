import type { LaunchContext } from '../adapter/index.ts';
import { expandArgs, expandEnv } from '../template/expand-template.ts';
import { definedEnv } from './defined-env.ts';
import type { LongLivedProcessOptions } from './long-lived-process.ts';

/** An adapter's program that serves many runs (persistent generic-cli, the external adapter process). */
export interface SharedProgramSpec {
  command: string;
  /** Argument templates: `${NAME}` and `{{workspacePath}}` (the process's directory); no per-run variables. */
  args: readonly string[];
  /** The process's directory; empty: the `cwd` of the run that starts it. */
  workDir: string;
  /** Added to the environment of the run that starts the process; values may use `${NAME}`. */
  env: Readonly<Record<string, string>>;
  /** SIGTERM → SIGKILL window when the process is killed (stop, dispose). */
  graceMs: number;
}

/**
 * How to start a shared program for the run `ctx` that needs it first: in `workDir` or the run's `cwd`,
 * with the run's environment plus `env`. A run's own `env` does not reach it. Throws `TemplateError`.
 */
export function sharedProgramLaunch(
  spec: SharedProgramSpec,
  ctx: LaunchContext,
): Pick<LongLivedProcessOptions, 'command' | 'args' | 'cwd' | 'env'> {
  const cwd = spec.workDir || ctx.request.cwd;
  const vars = { workspacePath: cwd };
  return {
    command: spec.command,
    args: expandArgs(spec.args, vars, ctx.env),
    cwd,
    env: { ...definedEnv(ctx.env), ...expandEnv(spec.env, vars, ctx.env) },
  };
}
