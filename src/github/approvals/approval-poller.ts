import type { CommentInfo, GitHubApi, RepoRef } from '../github-api.ts';
import type { Clock } from '../pacing/clock.ts';
import type { RunSteering, SteerCandidate } from '../steering/run-steering.ts';
import { parseCommand } from '../trigger/parse-command.ts';
import { isOwnLogin } from '../trust/is-own-login.ts';
import { answerFromCommand, answerFromReview, isDecisionCommand } from './answer-from.ts';
import type { ApprovalAnswer, GitHubApprovalChannel } from './github-approval-channel.ts';

export interface ApprovalPollerOptions {
  api: Pick<GitHubApi, 'listComments' | 'listReviews' | 'commentLastEditedAt'> &
    Partial<Pick<GitHubApi, 'listPullComments'>>;
  repo: RepoRef;
  number: number;
  isPullRequest: boolean;
  channel: Pick<GitHubApprovalChannel, 'answer' | 'pending'>;
  /** The trigger phrase and agents, for reading commands. */
  phrase: string;
  agents: readonly string[];
  selfLogins: readonly string[];
  /** Only comments and reviews from this time on are read (ISO 8601): the run's start. */
  since: string;
  /**
   * Mentions made during the run go to the running agent (steering): polled for the whole run,
   * not only while approvals are pending. On a pull request, its review comments too (a mention in
   * a review thread, the run's own included), with `listPullComments`.
   */
  steering?: Pick<RunSteering, 'offer'>;
  /** Between polls while approvals are pending (or, with `steering`, the whole run). Default 5000 ms. */
  intervalMs?: number;
  clock: Clock;
  onError?: (error: unknown) => void;
}

export interface ApprovalPoller {
  /** One round: new `/approve` / `/deny` comments and, on a pull request, new reviews. */
  pollOnce(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Delivers answers to approvals by polling, for front ends without webhooks (the Action). Polls
 * only while something is pending, with conditional requests: an unchanged list answers 304 and
 * costs no rate limit. Counts only comments written during the run and never edited, and answers
 * carry when they were given, so that none answers an approval asked after it.
 */
export function createApprovalPoller(options: ApprovalPollerOptions): ApprovalPoller {
  const { api, repo, channel } = options;
  const interval = options.intervalMs ?? 5000;
  const since = toSeconds(options.since);
  const sinceMs = Date.parse(since);
  const seenComments = new Set<number>();
  const seenReviews = new Set<number>();
  let commentsEtag: string | undefined;
  let reviewsEtag: string | undefined;
  let pullCommentsEtag: string | undefined;
  const seenPullComments = new Set<number>();
  let timer: unknown;
  let running = false;
  let stopped = true;

  async function pollOnce(): Promise<void> {
    if (channel.pending.length === 0 && options.steering === undefined) return;
    const answers: ApprovalAnswer[] = [];
    const mentions: SteerCandidate[] = [];
    const comments = await api.listComments(repo, options.number, { since, etag: commentsEtag });
    if (!comments.notModified) {
      commentsEtag = comments.etag;
      for (const comment of comments.data) {
        if (seenComments.has(comment.id) || !comment.user || isOwnLogin(comment.user.login, options.selfLogins))
          continue;
        seenComments.add(comment.id);
        // Only a comment written as it is, during the run: an edited one may have been changed by
        // someone else (a writer may edit an approver's comment into `/approve <id>`), and one
        // written before the run shows up here only because it was edited since.
        if (!writtenDuringRunStart(comment, sinceMs)) continue;
        const command = parseCommand(comment.body, { phrase: options.phrase, agents: options.agents });
        if (command?.kind === 'run' && options.steering) {
          const written = await editState(comment, (c) =>
            api.commentLastEditedAt ? api.commentLastEditedAt(repo, c) : undefined,
          );
          mentions.push({
            commentId: comment.id,
            body: comment.body,
            actor: comment.user,
            edited: written === 'edited',
            source: { kind: 'issue_comment', commentId: comment.id },
          });
        }
        if (isDecisionCommand(command)) {
          // Asked for answers only (one GraphQL query each): an edit in the second of writing
          // leaves `updated_at` equal to `created_at`, so the timestamps cannot be trusted alone.
          const written = await editState(comment, (c) =>
            api.commentLastEditedAt ? api.commentLastEditedAt(repo, c) : undefined,
          );
          const answer = answerFromCommand(command, {
            actor: comment.user,
            source: { kind: 'issue_comment', commentId: comment.id },
            givenAt: comment.createdAt,
          });
          // An edited one is not counted, and the channel says so on GitHub.
          answers.push(written === 'edited' ? { ...answer, edited: true } : answer);
        }
      }
    }
    if (options.isPullRequest) {
      const reviews = await api.listReviews(repo, options.number, { etag: reviewsEtag });
      if (!reviews.notModified) {
        reviewsEtag = reviews.etag;
        const earliest = toSeconds(channel.pending.map((p) => p.askedAt).sort()[0] ?? options.since);
        for (const review of reviews.data) {
          if (seenReviews.has(review.id) || !review.user || !review.submittedAt) continue;
          if (review.submittedAt < earliest) continue;
          seenReviews.add(review.id);
          const answer = answerFromReview({
            state: review.state,
            body: review.body,
            actor: review.user,
            commitSha: review.commitId,
            submittedAt: review.submittedAt,
          });
          if (answer !== undefined) answers.push(answer);
        }
      }
    }
    if (options.isPullRequest && options.steering) mentions.push(...(await reviewThreadMentions()));
    for (const answer of answers) await channel.answer(answer);
    for (const mention of mentions) await options.steering?.offer(mention);
  }

  /**
   * Mentions written during the run in the pull request's review comments (a reply in the run's
   * review thread, or any other): steering candidates. Edited ones are judged by their timestamps
   * (a review comment's `lastEditedAt` would cost a GraphQL query each).
   */
  async function reviewThreadMentions(): Promise<SteerCandidate[]> {
    if (!api.listPullComments) return [];
    const list = await api.listPullComments(repo, options.number, { since, etag: pullCommentsEtag });
    if (list.notModified) return [];
    pullCommentsEtag = list.etag;
    const mentions: SteerCandidate[] = [];
    for (const comment of list.data) {
      if (seenPullComments.has(comment.id) || !comment.user || isOwnLogin(comment.user.login, options.selfLogins))
        continue;
      seenPullComments.add(comment.id);
      const createdAt = comment.createdAt ?? '';
      const written = { createdAt, updatedAt: comment.updatedAt ?? createdAt };
      if (!writtenDuringRunStart(written, sinceMs)) continue;
      const command = parseCommand(comment.body, { phrase: options.phrase, agents: options.agents });
      if (command?.kind !== 'run') continue;
      mentions.push({
        commentId: comment.id,
        body: comment.body,
        actor: comment.user,
        edited: (await editState(written, () => undefined)) === 'edited',
        source: { kind: 'review_comment', commentId: comment.id },
      });
    }
    return mentions;
  }

  const schedule = () => {
    if (stopped) return;
    timer = options.clock.setTimeout(tick, interval);
  };
  const tick = () => {
    if (running || stopped) return;
    running = true;
    pollOnce()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = false;
        schedule();
      });
  };

  return {
    pollOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) options.clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * GitHub gives an unedited comment an `updated_at` up to a second after its `created_at` at times
 * (palantir/policy-bot#459): within this, the comment counts as written as it is.
 */
export const UNEDITED_SKEW_MS = 2000;

/** Whether a comment was written during the run (at or after `sinceMs`), not before it (then it shows up only because it was edited since). */
function writtenDuringRunStart(comment: Pick<CommentInfo, 'createdAt'>, sinceMs: number): boolean {
  const created = Date.parse(comment.createdAt);
  return !Number.isNaN(created) && created >= sinceMs;
}

/**
 * Whether a comment is as it was written or edited since, as GitHub records an edit: `lastEditedAt`
 * (GraphQL; null until an edit). Where that cannot be asked (no GraphQL, an error), edited means
 * `updated_at` more than {@link UNEDITED_SKEW_MS} after `created_at`: an edit within those seconds
 * then goes unseen.
 */
async function editState<C extends Pick<CommentInfo, 'createdAt' | 'updatedAt'>>(
  comment: C,
  lastEditedAt: (comment: C) => Promise<string | null> | undefined,
): Promise<'as-is' | 'edited'> {
  try {
    const edited = await lastEditedAt(comment);
    if (edited !== undefined) return edited === null ? 'as-is' : 'edited';
  } catch {
    // GraphQL unavailable (a GHES without it, a token refused): judged by the timestamps below.
  }
  const created = Date.parse(comment.createdAt);
  const updated = Date.parse(comment.updatedAt);
  return Number.isNaN(updated) || updated - created <= UNEDITED_SKEW_MS ? 'as-is' : 'edited';
}

/** GitHub's timestamps have whole seconds: a filter with milliseconds would skip the same second. */
function toSeconds(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
