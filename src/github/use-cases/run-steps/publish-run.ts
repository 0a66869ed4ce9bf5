import { existsSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { errorText } from '../../../core/errors/error-text.ts';
import { BUDGET_SPENT_MESSAGE } from '../../../core/run/stop/budget.ts';
import { pullNumberOf } from '../../pull-number-of.ts';
import { unseenChangesReason } from '../../report/claimed-changes.ts';
import { changedNothingReason } from '../../report/refused-changes.ts';
import { conclusionOf, endReasonText } from '../../report/run-lifecycle.ts';
import type { RunOutcome } from '../execute-run-options.ts';
import type { PublishedResult } from '../publish-result.ts';
import { concludeFailure, concludeSuccess } from './conclude-run.ts';
import type { RunContext } from './plan-run.ts';
import type { PreparedAgent } from './prepare-agent.ts';
import { publishSpentRun } from './publish-spent-run.ts';
import { publishWork } from './publish-work.ts';
import type { AgentRun } from './run-agent.ts';
import type { RunReports } from './run-reports.ts';
import type { RunTarget } from './run-target.ts';

/**
 * The last step: a run that ended well has its changes committed, pushed and put in a pull
 * request, its session kept for the next turn, and its check run concluded; one that did not, or
 * did nothing, or was taken over by another attempt, concludes with the reason. One whose budget
 * was spent keeps its work so far when `limits.budget.keepWork` says so (`publishSpentRun`).
 */
export async function publishRun(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
  agent: PreparedAgent,
  run: AgentRun,
): Promise<RunOutcome> {
  const { options, job } = ctx;
  const { pull } = target;
  const { end } = run;
  const conclusion = conclusionOf(end.reason);
  // Only when its spending budget was spent: a host's limit (a disk cap) keeps nothing of its checkout.
  if (end.reason === 'budget_exceeded' && end.message === BUDGET_SPENT_MESSAGE && job.config.limits.budget.keepWork) {
    return publishSpentRun(ctx, reports, target, agent, run);
  }
  if (conclusion !== 'success') {
    await run.keep(pull?.headRef, pull?.number);
    return concludeFailure(ctx, reports, conclusion, endReasonText(end), end);
  }
  let published: PublishedResult;
  try {
    published = await publishWork(ctx, target, agent);
  } catch (error) {
    await run.keep(pull?.headRef, pull?.number);
    return concludeFailure(
      ctx,
      reports,
      'failure',
      `the agent finished but its changes could not be published: ${errorText(error)}`,
      end,
    );
  }
  const pullRequest = pull?.number ?? pullNumberOf(published.pullRequestUrl);
  await run.keep(published.branch ?? pull?.headRef, pullRequest);
  reports.note(published.note);
  const didNothing = published.files.length === 0 ? await didNothingReason(ctx, reports) : undefined;
  if (didNothing) return concludeFailure(ctx, reports, 'neutral', didNothing, end);
  const superseded = await options.superseded?.();
  if (superseded !== undefined) return concludeFailure(ctx, reports, 'neutral', superseded, end);
  return concludeSuccess(ctx, reports, { ...published, pullRequest, noChanges: published.files.length === 0 }, end);
}

/**
 * No green run that did nothing: it tried to change something, was refused or failed, and changed
 * nothing; nor one whose writes or claims of a change left no trace in the checkout.
 */
async function didNothingReason(ctx: RunContext, reports: RunReports): Promise<string | undefined> {
  const { reporter } = await reports.reporting;
  const workspace = ctx.options.workspace;
  return (
    changedNothingReason(reporter.progress.steps) ??
    unseenChangesReason(reporter.progress.steps, ctx.message.finalMessage.summary ?? '', (path) => {
      const full = resolve(workspace, path);
      return full.startsWith(`${workspace}${sep}`) && existsSync(full);
    })
  );
}
