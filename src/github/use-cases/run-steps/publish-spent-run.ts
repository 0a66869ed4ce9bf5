import { errorText } from '../../../core/errors/error-text.ts';
import { pullNumberOf } from '../../pull-number-of.ts';
import { endReasonText } from '../../report/run-lifecycle.ts';
import type { RunOutcome } from '../execute-run-options.ts';
import type { PublishedResult } from '../publish-result.ts';
import { concludeFailure } from './conclude-run.ts';
import type { RunContext } from './plan-run.ts';
import type { PreparedAgent } from './prepare-agent.ts';
import { publishWork } from './publish-work.ts';
import type { AgentRun } from './run-agent.ts';
import type { RunReports } from './run-reports.ts';
import type { RunTarget } from './run-target.ts';

/** What the draft pull request of a run whose budget was spent says of its work. */
export const SPENT_UNFINISHED = "the run's budget was spent before it finished";

/**
 * A run that ended `budget_exceeded` with `limits.budget.keepWork`: what it changed so far is
 * committed and pushed like a finished run's (its branch, its pull request), and the check run
 * fails with the reason and where the work went; when it cannot be published, the reason says so.
 */
export async function publishSpentRun(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
  agent: PreparedAgent,
  run: AgentRun,
): Promise<RunOutcome> {
  const { pull } = target;
  const { end } = run;
  const spent = endReasonText(end);
  let published: PublishedResult;
  try {
    published = await publishWork(ctx, target, agent, SPENT_UNFINISHED);
  } catch (error) {
    await run.keep(pull?.headRef, pull?.number);
    const why = `${spent}; its work so far could not be published: ${errorText(error)}`;
    return concludeFailure(ctx, reports, 'failure', why, end);
  }
  const pullRequest = pull?.number ?? pullNumberOf(published.pullRequestUrl);
  await run.keep(published.branch ?? pull?.headRef, pullRequest);
  reports.note(published.note);
  const why = `${spent}; ${whereTheWorkIs(published, pullRequest)}`;
  return concludeFailure(ctx, reports, 'failure', why, end, { ...published, pullRequest });
}

/** `its work so far is on branch agent-mux/issue-12 (pull request #13)`, or that it changed nothing. */
export function whereTheWorkIs(published: PublishedResult, pullRequest: number | undefined): string {
  if (published.files.length === 0) return 'it changed no file';
  const { fork, branch } = published;
  if (fork?.kind === 'suggestions') return `its work so far is in review ${fork.reviewId} as suggestions`;
  // On a fork's pull request the work is on a branch of this repository, not that pull request's.
  const number = fork ? (fork.kind === 'pull_request' ? fork.number : undefined) : pullRequest;
  const where = branch === undefined ? 'pushed' : `on branch ${branch}`;
  return `its work so far is ${where}${number === undefined ? '' : ` (pull request #${number})`}`;
}
