import type { Adapter } from '../../../core/adapter/index.ts';
import { agentEnvironment } from '../../../core/env/agent-environment.ts';
import type { BuiltinToolOptions } from '../../../core/tools/builtin-tools.ts';
import type { ExecuteRunOptions } from '../execute-run-options.ts';

/**
 * `shell` for an agent whose tools are all the run's (a remote agent over ca-http-v1, a Process
 * agent): its commands run here, in the checkout, in the run's fence, with the agent's environment
 * (the allowlist's base list and the operator's extra names, never a key), under the run's policy.
 * Other agents have their own shell and get none.
 */
export function callerShell(
  adapter: Adapter,
  env: Readonly<Record<string, string | undefined>>,
  options: Pick<ExecuteRunOptions, 'fence' | 'isolateEnv'>,
): BuiltinToolOptions {
  if (adapter.callerTools !== 'native') return {};
  return {
    shell: {
      env: agentEnvironment(env, { extra: options.isolateEnv?.extra ?? [] }),
      ...(options.fence ? { fence: options.fence } : {}),
    },
  };
}
