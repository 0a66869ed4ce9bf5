import { tmpdir } from 'node:os';
import * as core from '@actions/core';
import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';
import type { ExecuteRunOptions } from '../../github/use-cases/execute-run.ts';
import { ensureAgentProgram } from '../install-agent.ts';
import type { ActionContext } from './action-context.ts';
import type { ActionRunSetup } from './action-run-setup.ts';

/** The run's `prepare`, and how long installing the agent's program took (for the job summary). */
export interface AgentProgramStep {
  prepare: NonNullable<ExecuteRunOptions['prepare']>;
  installMs(): number | undefined;
}

/**
 * What runs inside `executeRun`, beside the check-run and comment writes (a failure is the run's
 * failure): the fence checked (fail closed: without a working fence, and no `fence: off`, the agent
 * does not start), the agent's program found or installed into the tool cache.
 */
export function agentProgramStep(ctx: ActionContext, setup: ActionRunSetup): AgentProgramStep {
  const { env, inputs } = ctx;
  let installMs: number | undefined;
  const prepare: AgentProgramStep['prepare'] = async (signal, adapter) => {
    const decided = setup.fenceDecision;
    if (decided.kind === 'refused') throw new AgentMuxError('fence_unavailable', decided.reason);
    const installed = await ensureAgentProgram({
      program: adapter.program,
      version: inputs.agentVersion,
      toolCacheDir: env.RUNNER_TOOL_CACHE || tmpdir(),
      env: setup.agentEnv,
      log: (line) => core.info(line),
      signal,
    });
    if (installed.source === 'installed') {
      installMs = installed.ms;
      core.info(`agent program ready in ${(installed.ms / 1000).toFixed(1)} s`);
    }
    return {
      ...(installed.binDir ? { env: { PATH: `${installed.binDir}:${setup.agentEnv.PATH ?? ''}` } } : {}),
      ...(installed.version === undefined ? {} : { programVersion: installed.version }),
    };
  };
  return { prepare, installMs: () => installMs };
}
