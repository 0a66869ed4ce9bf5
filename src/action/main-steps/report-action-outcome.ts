import * as core from '@actions/core';
import type { RunOutcome } from '../../github/use-cases/execute-run.ts';
import type { RunJob } from '../../github/use-cases/run-job.ts';
import { actionOutputs } from '../action-outputs.ts';
import { STATE } from '../action-state.ts';
import { changedFileAnnotations } from '../changed-file-annotations.ts';
import { renderJobSummary } from '../job-summary.ts';
import type { ActionContext } from './action-context.ts';
import type { ActionRunSetup } from './action-run-setup.ts';

/**
 * The last step: the post step told the run is done, the outputs set, a notice per changed file,
 * the job summary (redacted like everything the run publishes), and the step failed unless the
 * run succeeded.
 */
export async function reportActionOutcome(
  ctx: ActionContext,
  job: RunJob,
  setup: ActionRunSetup,
  outcome: RunOutcome,
  installMs: number | undefined,
): Promise<void> {
  core.saveState(STATE.done, 'true');
  for (const [name, value] of Object.entries(actionOutputs(outcome))) core.setOutput(name, value);
  for (const notice of changedFileAnnotations([...outcome.changedFiles])) {
    core.notice(notice.message, notice.properties);
  }
  const summary = renderJobSummary({
    outcome,
    agent: job.agentName,
    installMs,
    trigger: {
      event: ctx.eventName,
      actor: job.actor.login,
      repository: `${job.repo.owner}/${job.repo.repo}`,
      number: job.number,
    },
  });
  await core.summary.addRaw(setup.redactor.redactString(summary)).write();
  if (outcome.conclusion !== 'success') {
    core.setFailed(`the agent run ended ${outcome.conclusion}${outcome.reason ? `: ${outcome.reason}` : ''}`);
  }
}
