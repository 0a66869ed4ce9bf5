import { errorText } from '../../../core/errors/error-text.ts';
import { pullNumberOf } from '../../pull-number-of.ts';
import { earlierAttemptCommit } from '../earlier-attempt-commit.ts';
import type { RunOutcome } from '../execute-run-options.ts';
import { pullRequestFor } from '../publish-result.ts';
import { concludeFailure, concludeSuccess } from './conclude-run.ts';
import type { RunContext } from './plan-run.ts';
import { SPENT_UNFINISHED, whereTheWorkIs } from './publish-spent-run.ts';
import type { RunReports } from './run-reports.ts';
import type { RunTarget } from './run-target.ts';

/**
 * A retry whose predecessor had pushed the run's commit before its worker died: that commit is
 * the run's result, published and reported; the agent is not run (and paid) again. A commit of work
 * a spent budget left unfinished (its `Agent-Mux-Run-End: budget_exceeded` trailer) concludes as
 * that run did: failed, `budget exceeded`, with a draft pull request. Undefined when the run is no
 * retry or no earlier attempt pushed.
 */
export async function earlierAttemptResult(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
): Promise<RunOutcome | undefined> {
  const { options, api, job } = ctx;
  if (!options.retried) return undefined;
  const { pull } = target;
  const earlier = await earlierAttemptCommit({
    api,
    repo: job.repo,
    job,
    pull,
    branch: target.branch?.name,
    cwd: options.workspace,
    git: options.git,
    runId: ctx.runId,
    log: (line) => reports.note(line),
  });
  if (earlier === undefined) return undefined;
  let published: Awaited<ReturnType<typeof pullRequestFor>>;
  try {
    published = await pullRequestFor({
      api,
      job,
      pull,
      ...earlier,
      ...(earlier.unfinished ? { unfinished: SPENT_UNFINISHED } : {}),
    });
  } catch (error) {
    return concludeFailure(
      ctx,
      reports,
      'failure',
      `an earlier attempt's commit could not be published: ${errorText(error)}`,
    );
  }
  reports.note(
    `an earlier attempt of this run had pushed ${earlier.commitSha.slice(0, 7)} to ${earlier.branch} before its worker stopped: published it, the agent was not run again`,
  );
  reports.note(published.note);
  const pullRequest = pull?.number ?? pullNumberOf(published.pullRequestUrl);
  if (earlier.unfinished) {
    const why = `budget exceeded; ${whereTheWorkIs(published, pullRequest)}`;
    return concludeFailure(ctx, reports, 'failure', why, undefined, { ...published, pullRequest });
  }
  return concludeSuccess(ctx, reports, { ...published, pullRequest, noChanges: false }, undefined);
}
