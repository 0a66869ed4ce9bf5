import { randomUUID } from 'node:crypto';
import * as core from '@actions/core';
import { looksSecret } from '../../core/env/agent-environment.ts';
import { Redactor } from '../../core/redact/redactor.ts';
import type { FenceOptions } from '../../core/sandbox/index.ts';
import { STATE } from '../action-state.ts';
import { actionRunId } from '../cancel-workflow-runs.ts';
import type { RunnerFence } from '../runner-fence.ts';
import { agentMarker, RUN_MARKER_ENV } from '../stop-leftover-agents.ts';
import type { ActionContext } from './action-context.ts';

/** What the run is given beyond its job: its environment, fence, secrets and ids. */
export interface ActionRunSetup {
  /**
   * The host side of the agent's environment: the run builds the agent's own from an allowlist
   * (`isolateEnv`): its adapter's key and vendor variables, never the token or other keys.
   */
  agentEnv: Record<string, string | undefined>;
  fenceDecision: RunnerFence;
  fence: FenceOptions | undefined;
  /** Every value redacted from what the run publishes: the token, the keys, secret-named agent-env values. */
  secrets: string[];
  redactor: Redactor;
  runId: string;
}

/**
 * Sets the run up: the fence's decision said in the log, the values to redact (masked in the
 * job log too), the run's id and the marker its agent processes carry, both saved for the post
 * step (which stops this job's agents only).
 */
export function actionRunSetup(ctx: ActionContext, fenceDecision: RunnerFence): ActionRunSetup {
  const { env, inputs } = ctx;
  const agentEnv: Record<string, string | undefined> = { ...env, ...inputs.apiKeys };
  if (fenceDecision.kind === 'off') core.warning(fenceDecision.warning);
  if (fenceDecision.kind === 'fenced') for (const note of fenceDecision.notes) core.info(`agent-mux: ${note}`);
  // Variables given with agent-env whose names say they are secret (AWS_SECRET_ACCESS_KEY, …) are redacted too.
  const passedSecrets = inputs.agentEnv
    .filter((name) => looksSecret(name) && env[name])
    .map((name) => env[name] as string);
  for (const value of passedSecrets) core.setSecret(value);
  const secrets = [inputs.githubToken, ...Object.values(inputs.apiKeys), ...passedSecrets];
  const runId = actionRunId(env.GITHUB_RUN_ID ?? `${Date.now()}`, env.GITHUB_RUN_ATTEMPT ?? '1');
  const marker = agentMarker(runId, env.GITHUB_JOB, randomUUID());
  agentEnv[RUN_MARKER_ENV] = marker;
  core.saveState(STATE.runId, runId);
  core.saveState(STATE.agentMarker, marker);
  return {
    agentEnv,
    fenceDecision,
    fence: fenceDecision.kind === 'fenced' ? fenceDecision.fence : undefined,
    secrets,
    redactor: new Redactor(secrets),
    runId,
  };
}
