import type { RunEnd } from '../../../core/run/run-options.ts';
import { turnRecordOf } from '../../conversation/run-turn.ts';
import type { FinishInfo } from '../../report/finish-info.ts';
import { renderAnnotations } from '../../report/render-check-run.ts';
import type { ApprovalEntry } from '../../report/run-progress.ts';
import type { RunOutcome } from '../execute-run-options.ts';
import type { PublishedResult } from '../publish-result.ts';
import type { RunContext } from './plan-run.ts';
import type { RunReports } from './run-reports.ts';

/**
 * Ends a run that did not succeed (or, with `neutral`, did nothing): the reason in the check run
 * and the comment, the agent's answer if it gave one, and the branch and pull request its work so
 * far was `published` to, if it was (a run whose budget was spent). A run another attempt took
 * over (the front end's `superseded`) concludes neutral with that reason, so a run has one conclusion.
 */
export async function concludeFailure(
  ctx: RunContext,
  reports: RunReports,
  wanted: RunOutcome['conclusion'],
  why: string,
  end?: RunEnd,
  published?: PublishedResult & { pullRequest: number | undefined },
): Promise<RunOutcome> {
  const superseded = wanted === 'neutral' ? undefined : await ctx.options.superseded?.();
  const conclusion = superseded === undefined ? wanted : 'neutral';
  const reason = superseded === undefined ? why : `${why}; ${superseded}`;
  reports.note(reason);
  if (published === undefined) return finish(ctx, reports, { conclusion, reason }, { end, changedFiles: [] });
  return finish(
    ctx,
    reports,
    { conclusion, reason, ...whereItWent(published) },
    { end, ...publishedOutcome(published) },
  );
}

/** Ends a run that succeeded: its branch and pull request, the files it changed, its answer. */
export async function concludeSuccess(
  ctx: RunContext,
  reports: RunReports,
  published: PublishedResult & { pullRequest: number | undefined; noChanges: boolean },
  end: RunEnd | undefined,
): Promise<RunOutcome> {
  return finish(
    ctx,
    reports,
    { conclusion: 'success', ...whereItWent(published), noChanges: published.noChanges },
    { end, ...publishedOutcome(published) },
  );
}

/** The branch, pull request and fork delivery a run's changes went to, for its check run and comment. */
function whereItWent(published: PublishedResult): Pick<FinishInfo, 'branch' | 'pullRequestUrl' | 'fork'> {
  return {
    branch: published.branch,
    pullRequestUrl: published.pullRequestUrl,
    ...(published.fork ? { fork: published.fork } : {}),
  };
}

function publishedOutcome(published: PublishedResult & { pullRequest: number | undefined }) {
  return {
    branch: published.branch,
    pullRequestUrl: published.pullRequestUrl,
    changedFiles: published.files,
    pullRequest: published.pullRequest,
  };
}

async function finish(
  ctx: RunContext,
  reports: RunReports,
  info: FinishInfo,
  result: Pick<RunOutcome, 'end' | 'branch' | 'pullRequestUrl' | 'changedFiles'> & { pullRequest?: number },
): Promise<RunOutcome> {
  const { reporter, base } = await reports.reporting;
  const said = ctx.message.answer();
  const { pullRequest, ...outcome } = result;
  await reporter.finish({
    ...info,
    ...(said === undefined ? {} : { answer: said }),
    annotations: renderAnnotations(result.changedFiles),
    record: turnRecordOf(ctx.baseRecord, {
      conclusion: info.conclusion,
      finalMessage: ctx.message.finalMessage.summary,
      branch: info.branch,
      pullRequest,
      reviewed: ctx.reviewed,
    }),
  });
  return {
    ...base,
    conclusion: info.conclusion,
    ...(info.reason === undefined ? {} : { reason: info.reason }),
    ...outcome,
    approvals: approvalsOf(reporter.progress),
    progress: reporter.progress,
  };
}

function approvalsOf(progress: { approvals: readonly ApprovalEntry[] }): RunOutcome['approvals'] {
  return progress.approvals.map((a) => ({ approvalId: a.id, toolName: a.toolName, decision: a.state, by: a.by }));
}
