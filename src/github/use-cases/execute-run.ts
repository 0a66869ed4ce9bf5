import { errorText } from '../../core/errors/error-text.ts';
import type { AgentEvent } from '../../core/events/index.ts';
import type { GitHubApi } from '../github-api.ts';
import { redactingApi } from '../redacting-api.ts';
import { FinalMessage } from '../report/final-message.ts';
import { answerInReviewThread } from './answer-in-review-thread.ts';
import type { ExecuteRunOptions, RunOutcome } from './execute-run-options.ts';
import { type RunSecrets, runSecrets } from './run-secrets.ts';
import { concludeFailure } from './run-steps/conclude-run.ts';
import { earlierAttemptResult } from './run-steps/earlier-attempt-result.ts';
import { planRun, type RunMessage } from './run-steps/plan-run.ts';
import { type PreparedAgent, prepareAgent } from './run-steps/prepare-agent.ts';
import { prepareReview, type ReviewSession } from './run-steps/prepare-review.ts';
import { publishReviewRun } from './run-steps/publish-review-run.ts';
import { publishRun } from './run-steps/publish-run.ts';
import { runAgent } from './run-steps/run-agent.ts';
import { beginReports } from './run-steps/run-reports.ts';
import { resolveRunTarget } from './run-steps/run-target.ts';

export type { ExecuteRunOptions, RunOutcome } from './execute-run-options.ts';

/**
 * Carries out one accepted job: check run and tracking comment, the workspace on the right
 * commit with planted agent config restored, the agent run with approvals on GitHub and live
 * reporting, then the branch, the pull request and the final reports. The writes to GitHub go on
 * while the workspace (and the front end's `prepare`) get ready, and the agent starts as soon as
 * those are: what it says before the check run exists is buffered and reported once it does.
 * Never leaves the check run in progress: whatever fails after it could be made, it is concluded.
 */
export async function executeRun(options: ExecuteRunOptions): Promise<RunOutcome> {
  // A request made in a review comment is answered in its thread (`answerInReviewThread`).
  const finalMessage = new FinalMessage();
  const onEvent = (event: AgentEvent) => {
    finalMessage.apply(event);
    options.onEvent?.(event);
  };
  const secrets = runSecrets(options);
  const answer = () => {
    const text = finalMessage.text;
    return text === undefined ? undefined : secrets.redactor.redactString(text);
  };
  const outcome = await runAndReport({ ...options, onEvent }, secrets, { finalMessage, answer });
  const said = answer();
  if (said !== undefined) outcome.finalMessage = said;
  await answerInReviewThread({
    api: redactingApi(options.deps.api, secrets.redactor),
    job: options.job,
    outcome,
    workspace: options.workspace,
    finalMessage: finalMessage.text,
    log: options.deps.log,
  });
  return outcome;
}

/**
 * The run as a sequence of steps: its place in the conversation, its target commit, its reports
 * (started at once), the agent made ready, an earlier attempt's pushed result (a retry), the
 * agent's run, the result published. Every step after the reports exist ends in a conclusion.
 */
async function runAndReport(options: ExecuteRunOptions, secrets: RunSecrets, message: RunMessage): Promise<RunOutcome> {
  const ctx = await planRun(options, secrets, message);
  const targeting = resolveRunTarget(ctx);
  const reports = beginReports(ctx, targeting);
  let agent: PreparedAgent;
  try {
    agent = await prepareAgent(ctx, targeting, reports.signal);
  } catch (error) {
    await reports.settled(); // throws why the check run could not be made
    const wanted = options.signal?.aborted ? 'cancelled' : 'failure';
    return concludeFailure(ctx, reports, wanted, `could not start: ${errorText(error)}`);
  }
  await reports.settled();
  const target = await targeting;
  const reset = [...agent.prepared.restored, ...agent.prepared.removed];
  if (reset.length > 0) reports.note(`agent config files reset to the base branch: ${reset.join(', ')}`);
  const earlier = await earlierAttemptResult(ctx, reports, target);
  if (earlier) return earlier;
  let review: ReviewSession | undefined;
  try {
    review = ctx.job.review ? await prepareReview(ctx, target, agent.resolved.adapter) : undefined;
  } catch (error) {
    return concludeFailure(ctx, reports, 'failure', `could not start the review: ${errorText(error)}`);
  }
  if (review?.scope.kind === 'none') {
    reports.note(`no agent run: ${review.scope.why} (review.incremental: ${ctx.job.config.review.incremental})`);
    return publishReviewRun(ctx, reports, target, undefined, review);
  }
  const run = await runAgent(ctx, reports, target, agent, review);
  await reports.settled();
  return review ? publishReviewRun(ctx, reports, target, run, review) : publishRun(ctx, reports, target, agent, run);
}

export type { GitHubApi };
