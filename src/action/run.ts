import * as core from '@actions/core';
import { errorText } from '../core/errors/error-text.ts';
import { REPO_CONFIG_PATH } from '../github/config/load-repo-config.ts';
import { steeredEarlier } from '../github/steering/steered-earlier.ts';
import { defaultTriggerPhrase } from '../github/trigger/parse-command.ts';
import { handleTrigger } from '../github/use-cases/handle-trigger.ts';
import type { RunJob } from '../github/use-cases/run-job.ts';
import type { ActionInputs } from './action-inputs.ts';
import { setConclusion } from './action-outputs.ts';
import { forkReviewNotice } from './fork-review-event.ts';
import { type ActionContext, readActionContext } from './main-steps/action-context.ts';
import { actionRunSetup } from './main-steps/action-run-setup.ts';
import { agentProgramStep } from './main-steps/agent-program-step.ts';
import { concludeWithoutRun } from './main-steps/conclude-without-run.ts';
import { executeActionRun } from './main-steps/execute-action-run.ts';
import { reportActionOutcome } from './main-steps/report-action-outcome.ts';
import { startRunnerFence } from './main-steps/start-runner-fence.ts';

export { sharesDefaultBranchCache } from './main-steps/execute-action-run.ts';

/**
 * The Action's main step: reads the event the runner saved, decides what it asks for, and runs
 * the agent through the shared GitHub use cases. Every failure ends in `core.setFailed`.
 */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await main(env);
  } catch (error) {
    setConclusion('failure');
    core.setFailed(error instanceof Error ? error.message : `agent-mux failed: ${String(error)}`);
  }
}

/** The main step as its steps: read, (fork review?), fence ahead, decide, set up, run, report. */
async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const ctx = await readActionContext(env);
  if (await skippedForkReview(ctx)) return;
  const fenceDecision = startRunnerFence(ctx);
  const decision = await handleTrigger(
    ctx.deps,
    { eventName: ctx.eventName, payload: ctx.payload, deliveryId: env.GITHUB_RUN_ID },
    {
      phrase: ctx.inputs.triggerPhrase,
      agent: ctx.inputs.agent,
      allowedBots: ctx.inputs.allowedBots,
      configPath: ctx.inputs.configPath === REPO_CONFIG_PATH ? undefined : ctx.inputs.configPath,
      prompt: ctx.inputs.prompt,
    },
    { acknowledgeInBackground: true },
  );
  if (decision.kind !== 'run') return concludeWithoutRun(ctx, decision);
  const { job } = decision;
  if (await deliveredEarlier(ctx, job)) return;
  core.info(`agent-mux: running ${job.agentName}${job.number === undefined ? '' : ` on #${job.number}`}`);
  const setup = actionRunSetup(ctx, await fenceDecision());
  const program = agentProgramStep(ctx, setup);
  const outcome = await executeActionRun(ctx, job, setup, program);
  await reportActionOutcome(ctx, job, setup, outcome, program.installMs());
}

/**
 * A mention delivered to the run that was in progress when it was written (steering, `steered` in
 * that turn's record): the run it started too has nothing left to do. Says so and ends, skipped.
 */
async function deliveredEarlier(ctx: ActionContext, job: RunJob): Promise<boolean> {
  let url: string | undefined;
  try {
    url = await steeredEarlier(ctx.api, job, ctx.deps.selfLogins);
  } catch (error) {
    core.warning(`agent-mux: could not read whether an earlier run took this request: ${errorText(error)}`);
    return false;
  }
  if (url === undefined) return false;
  const text = `this request was delivered to the run that was in progress when it was written (${url}); nothing is left to do`;
  core.info(`agent-mux: ${text}`);
  if (ctx.env.GITHUB_STEP_SUMMARY) await core.summary.addHeading('agent-mux did not run', 3).addRaw(text).write();
  setConclusion('skipped');
  return true;
}

/**
 * A fork's review comment: GitHub gives the workflow a read-only token and no secrets. Says so
 * where the user looks (the log, the job summary) and starts nothing.
 */
async function skippedForkReview(ctx: ActionContext): Promise<boolean> {
  const notice = forkReviewNotice(ctx.eventName, ctx.payload, ctx.inputs.triggerPhrase ?? defaultTriggerPhrase);
  if (notice === undefined) return false;
  core.warning(`agent-mux: ${notice}`);
  if (ctx.env.GITHUB_STEP_SUMMARY) await core.summary.addHeading('agent-mux did not run', 3).addRaw(notice).write();
  setConclusion('skipped');
  return true;
}

export type { ActionInputs };
