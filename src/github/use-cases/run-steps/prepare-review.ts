import type { Adapter } from '../../../core/adapter/index.ts';
import { checkApprover } from '../../approvals/approver-rule.ts';
import { DiffAnchors } from '../../review/diff-anchors.ts';
import { FindingCollector } from '../../review/finding-collector.ts';
import { lastReviewedHead } from '../../review/last-reviewed-head.ts';
import { type PriorReview, readPriorReview } from '../../review/read-prior-review.ts';
import { reviewPrompt } from '../../review/review-prompt.ts';
import { needsComparison, type ReviewScope, reviewScope } from '../../review/review-scope.ts';
import type { RunContext } from './plan-run.ts';
import type { RunTarget } from './run-target.ts';

/** A review run's own parts: what the agent reports into, the diff's lines, what earlier reviews left. */
export interface ReviewSession {
  collector: FindingCollector;
  anchors: DiffAnchors;
  prior: PriorReview;
  /** What this review covers (`review.incremental`); `none`: no agent runs. */
  scope: ReviewScope;
  /** What the review adds to the agent's prompt. */
  prompt: string;
}

/**
 * Before a review's agent starts: the pull request's changed files (which lines a finding may sit
 * on), what earlier reviews posted and what became of it, and the repository's review rules read
 * from the base branch (a pull request cannot rewrite the rules it is reviewed by).
 */
export async function prepareReview(ctx: RunContext, target: RunTarget, adapter: Adapter): Promise<ReviewSession> {
  const { api, job } = ctx;
  const pull = target.pull;
  if (!pull || job.number === undefined) throw new Error('a review needs a pull request');
  const config = job.config.review;
  const [files, prior, rules] = await Promise.all([
    api.listPullFiles(job.repo, job.number),
    readPriorReview({
      api,
      repo: job.repo,
      pull: job.number,
      selfLogins: ctx.options.deps.selfLogins,
      // The people who may approve a tool call may dismiss a finding; a pull request's author may not.
      mayDismiss: async (login) => {
        const { users, teams, permission } = job.config.approvals;
        const rule = { users, teams, permission: permission ?? job.config.trigger.permission };
        const selfLogins = ctx.options.deps.selfLogins;
        return (await checkApprover({ api, repo: job.repo, login, type: 'User', rule, selfLogins })).ok;
      },
    }),
    Promise.all(
      config.rules.map(async (path) => ({ path, text: (await api.getFileText(job.repo, path, pull.baseRef)) ?? '' })),
    ),
  ]);
  const anchors = DiffAnchors.fromFiles(files.map((f) => ({ filename: f.path, patch: f.patch, status: f.status })));
  const scope = await scopeOf(
    ctx,
    target.headSha,
    files.map((f) => f.path),
    prior,
  );
  const capabilities = adapter.capabilities;
  return {
    collector: new FindingCollector({
      anchors,
      max: config.maxFindings,
      ...(scope.kind === 'files' ? { scope: scope.files } : {}),
    }),
    anchors,
    prior,
    scope,
    prompt: reviewPrompt({
      pull: job.number,
      baseRef: pull.baseRef,
      files: files.filter((f) => f.status !== 'removed').map((f) => f.path),
      rules: rules.filter((r) => r.text.trim() !== ''),
      prior,
      threshold: config.threshold,
      maxFindings: config.maxFindings,
      canReport: capabilities.mcp || capabilities.approvals === 'relay',
      ...(scope.kind === 'files' ? { since: { sha: scope.since, files: scope.files } } : {}),
    }),
  };
}

/**
 * What this review covers: on a push with `review.incremental` on, the head the last review saw
 * (its tracking comment's record) and what changed since (GitHub's comparison of the two).
 */
async function scopeOf(
  ctx: RunContext,
  headSha: string,
  pullFiles: string[],
  prior: PriorReview,
): Promise<ReviewScope> {
  const { api, job } = ctx;
  const mode = job.config.review.incremental;
  const push = job.source.kind === 'pull_request' && job.source.action === 'synchronize';
  const number = job.number ?? 0;
  const selfLogins = ctx.options.deps.selfLogins;
  const reviewedSha =
    mode !== 'off' && push ? await lastReviewedHead({ api, repo: job.repo, pull: number, selfLogins }) : undefined;
  const base = { mode, push, reviewedSha, headSha, pullFiles, findings: prior.state.findings };
  const comparison =
    reviewedSha !== undefined && needsComparison(base)
      ? await api.compareCommits(job.repo, reviewedSha, headSha).catch(() => undefined)
      : undefined;
  return reviewScope({ ...base, comparison });
}
