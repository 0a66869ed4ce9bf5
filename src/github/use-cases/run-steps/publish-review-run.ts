import { errorText } from '../../../core/errors/error-text.ts';
import { runGit } from '../../git/git.ts';
import { conclusionOf, endReasonText } from '../../report/run-lifecycle.ts';
import { anchorText } from '../../review/anchor-text.ts';
import { firstLineOf } from '../../review/finding.ts';
import { findingsFromMessage } from '../../review/findings-from-message.ts';
import { type PublishedReview, publishReview } from '../../review/publish-review.ts';
import type { LocatedFinding } from '../../review/reconcile-findings.ts';
import type { RunOutcome } from '../execute-run-options.ts';
import { concludeFailure, concludeSuccess } from './conclude-run.ts';
import type { RunContext } from './plan-run.ts';
import type { ReviewSession } from './prepare-review.ts';
import type { AgentRun } from './run-agent.ts';
import type { RunReports } from './run-reports.ts';
import type { RunTarget } from './run-target.ts';

/**
 * The last step of a review: the findings the agent reported (or, from an agent without tools,
 * its answer's JSON block) anchored to the head commit as git has it (not as the agent may have
 * left the checkout), posted as one review with the earlier ones reconciled, and the check run
 * `agent-mux / review` concluded: not a success while a finding at or above `review.blockOn` is open.
 */
export async function publishReviewRun(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
  run: AgentRun | undefined,
  review: ReviewSession,
): Promise<RunOutcome> {
  const { job, options } = ctx;
  const end = run?.end;
  const ended = end === undefined ? 'success' : conclusionOf(end.reason);
  if (end !== undefined && ended !== 'success') {
    return concludeFailure(ctx, reports, ended, endReasonText(end), end);
  }
  if (job.number === undefined) return concludeFailure(ctx, reports, 'failure', 'a review needs a pull request', end);
  const config = job.config.review;
  const head = new HeadFiles(options.workspace, target.headSha);
  const reported = review.collector.findings().map((f) => f.finding);
  if (reported.length === 0 && run !== undefined) {
    const fromAnswer = findingsFromMessage(ctx.message.finalMessage.text ?? '');
    for (const problem of fromAnswer.problems) reports.note(`a finding in the answer was left out: ${problem}`);
    const inScope = fromAnswer.findings.filter((finding) => {
      const outside = review.collector.outOfScope(finding);
      if (outside !== undefined) reports.note(`a finding in the answer was left out: ${outside}`);
      return outside === undefined;
    });
    reported.push(...inScope.slice(0, config.maxFindings));
  }
  const paths = [...new Set([...reported.map((f) => f.path), ...review.prior.state.findings.map((f) => f.path)])];
  await head.load(paths);
  const located: LocatedFinding[] = reported.map((finding) => ({
    finding,
    anchor: anchorText(head.at(finding.path) ?? '', firstLineOf(finding), finding.line),
  }));
  let published: PublishedReview;
  try {
    const { checkRunUrl } = (await reports.reporting).base;
    published = await publishReview({
      api: ctx.api,
      repo: job.repo,
      pull: job.number,
      headSha: target.headSha,
      prior: review.prior,
      reported: located,
      anchors: review.anchors,
      contentAt: (path) => head.at(path),
      threshold: config.threshold,
      blockOn: config.blockOn,
      checkRunUrl,
    });
  } catch (error) {
    return concludeFailure(ctx, reports, 'failure', `the review could not be posted: ${errorText(error)}`, end);
  }
  // The head this review saw, in its turn record: where the next incremental review starts.
  ctx.reviewed = target.headSha;
  const { reconciliation: done, open, blocking } = published;
  if (published.review) reports.note(`review posted: ${published.review.htmlUrl}`);
  reports.note(
    `review: ${done.post.length} new finding(s) posted, ${done.repeated.length} still open from earlier reviews, ` +
      `${done.resolve.length} resolved, ${done.suppressed.length} dismissed earlier and not raised again`,
  );
  for (const problem of published.unresolved) reports.note(`a thread could not be resolved: ${problem}`);
  if (blocking.length > 0) {
    const list = blocking.map((f) => `[${f.severity}] ${f.path}:${f.line} ${f.title}`).join('; ');
    return concludeFailure(
      ctx,
      reports,
      config.conclusion,
      `${blocking.length} blocking finding(s) open: ${list}`,
      end,
    );
  }
  reports.note(
    open.length > 0 ? `${open.length} finding(s) open, none at or above ${config.blockOn}` : 'no finding open',
  );
  return concludeSuccess(
    ctx,
    reports,
    {
      files: [],
      note: '',
      pullRequest: job.number,
      noChanges: true,
    },
    end,
  );
}

/** The files of the reviewed commit as git has them (what the agent left in the checkout does not count). */
class HeadFiles {
  readonly #files = new Map<string, string | undefined>();
  readonly #workspace: string;
  readonly #sha: string;

  constructor(workspace: string, sha: string) {
    this.#workspace = workspace;
    this.#sha = sha;
  }

  async load(paths: readonly string[]): Promise<void> {
    await Promise.all(
      paths.map(async (path) => {
        const text = await runGit(['show', `${this.#sha}:${path}`], { cwd: this.#workspace }).catch(() => undefined);
        this.#files.set(path, text);
      }),
    );
  }

  at(path: string): string | undefined {
    return this.#files.get(path);
  }
}
