import type { GitHubApi, NewReviewComment, RepoRef } from '../github-api.ts';
import { markers } from '../github-names.ts';
import type { DiffAnchors } from './diff-anchors.ts';
import { type Finding, firstLineOf, SEVERITIES, type Severity, severityAtLeast } from './finding.ts';
import { encodeFinding } from './finding-marker.ts';
import type { PriorReview } from './read-prior-review.ts';
import { type LocatedFinding, type Reconciliation, reconcileFindings } from './reconcile-findings.ts';
import { renderBodyFinding, renderFindingComment, renderResolvedReply } from './render-finding.ts';
import type { ReviewedFinding } from './review-state.ts';

export interface PublishReviewInput {
  api: Pick<GitHubApi, 'createReview' | 'replyToReviewComment' | 'resolveReviewThread'>;
  repo: RepoRef;
  pull: number;
  headSha: string;
  prior: PriorReview;
  /** What the agent reported on this head. */
  reported: readonly LocatedFinding[];
  anchors: DiffAnchors;
  contentAt: (path: string) => string | undefined;
  /** Findings below this severity are not posted. */
  threshold: Severity;
  /** An open finding at or above this severity keeps the review's check run from succeeding. */
  blockOn: Severity;
  /** The review's check run, linked from the review's body. */
  checkRunUrl?: string;
  /** The agent's summary of the change, at the head of the review's body. */
  summary?: string;
}

export interface PublishedReview {
  reconciliation: Reconciliation;
  /** The review posted on GitHub (none when there was nothing new to say). */
  review: { id: number; htmlUrl: string } | undefined;
  /** Every finding still open after this review, most serious first. */
  open: ReviewedFinding[];
  /** The open findings at or above `blockOn`. */
  blocking: ReviewedFinding[];
  /** Threads that could not be resolved on GitHub (the reply says why; the run goes on). */
  unresolved: string[];
}

/**
 * Puts one review of `headSha` on GitHub: the new findings as one review (inline on their diff
 * lines with a suggestion where the agent proposed one, the rest in its body), a one-line reply
 * and a resolved thread for each earlier finding whose code is gone; nothing for what was already
 * said or was dismissed. Says which findings are still open and which of them block.
 */
export async function publishReview(input: PublishReviewInput): Promise<PublishedReview> {
  const { api, repo, pull, headSha, prior, anchors } = input;
  const reported = input.reported.filter((f) => severityAtLeast(f.finding.severity, input.threshold));
  const reconciliation = reconcileFindings({ prior: prior.state, reported, headSha, contentAt: input.contentAt });
  const byId = new Map(reconciliation.state.findings.map((f) => [f.id, f]));

  const comments: NewReviewComment[] = [];
  const outside: string[] = [];
  for (const { id, located } of reconciliation.post) {
    const kept = byId.get(id);
    const marker = kept ? encodeFinding(kept) : '';
    const { finding } = located;
    if (anchors.covers(finding.path, firstLineOf(finding), finding.line)) {
      comments.push({
        path: finding.path,
        line: finding.line,
        ...(finding.startLine === undefined || finding.startLine === finding.line
          ? {}
          : { startLine: finding.startLine }),
        body: renderFindingComment(id, finding, marker),
      });
    } else {
      outside.push(`${renderBodyFinding(finding)}\n  ${markers.finding(id, marker)}`);
    }
  }

  const unresolved: string[] = [];
  const goneOutside: string[] = [];
  for (const { prior: finding, reason } of reconciliation.resolve) {
    const thread = prior.threads.get(finding.id);
    if (thread === undefined) {
      goneOutside.push(`- ~~${finding.title}~~ (\`${finding.path}\`): ${reason}`);
      continue;
    }
    try {
      await api.replyToReviewComment(repo, pull, thread.rootCommentId, renderResolvedReply(reason, headSha));
      await api.resolveReviewThread(repo, thread.threadId);
    } catch (error) {
      unresolved.push(`${finding.title}: ${(error as Error).message}`);
    }
  }

  let review: PublishedReview['review'];
  if (comments.length > 0 || outside.length > 0 || goneOutside.length > 0) {
    const body = reviewBody(input, reconciliation, outside, goneOutside);
    review = await api.createReview(repo, pull, { commitId: headSha, body, comments });
  }
  const open = reconciliation.state.findings
    .filter((f) => f.status === 'open')
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
  const blocking = open.filter((f) => severityAtLeast(f.severity, input.blockOn));
  return { reconciliation, review, open, blocking, unresolved };
}

function reviewBody(input: PublishReviewInput, done: Reconciliation, outside: string[], gone: string[]): string {
  const lines: string[] = [];
  if (input.summary) lines.push(input.summary.trim(), '');
  const repeated = done.repeated.length;
  const counts = [
    `${done.post.length} new finding${done.post.length === 1 ? '' : 's'}`,
    ...(repeated > 0 ? [`${repeated} still open from earlier reviews`] : []),
    ...(done.resolve.length > 0 ? [`${done.resolve.length} resolved by this push`] : []),
  ];
  lines.push(`agent-mux reviewed ${input.headSha.slice(0, 7)}: ${counts.join(', ')}.`);
  if (outside.length > 0) lines.push('', 'Outside the lines this pull request changes:', ...outside);
  if (gone.length > 0) lines.push('', 'No longer holds:', ...gone);
  if (input.checkRunUrl) lines.push('', `[Check run](${input.checkRunUrl})`);
  return lines.join('\n');
}

function severityRank(severity: Finding['severity']): number {
  return SEVERITIES.indexOf(severity);
}
