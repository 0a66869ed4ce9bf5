import type { GitHubApi, RepoRef, ReviewThreadInfo } from '../github-api.ts';
import { markers } from '../github-names.ts';
import { isOwnLogin } from '../trust/is-own-login.ts';
import { isDismissal } from './dismissal.ts';
import { decodeFinding, type MarkedFinding } from './finding-marker.ts';
import { RESOLVED_REPLY_PREFIX } from './render-finding.ts';
import { emptyReviewState, type ReviewedFinding, type ReviewState } from './review-state.ts';

/** A person's reply in the thread of a finding that is still open: the agent reads it on its next review. */
export interface ThreadReply {
  findingId: string;
  path: string;
  title: string;
  author: string;
  /** What they wrote (untrusted: contained before it reaches the agent). */
  text: string;
}

/** What earlier reviews left on a pull request, read back from GitHub. */
export interface PriorReview {
  state: ReviewState;
  /** The thread of each inline finding, by finding id. */
  threads: Map<string, { threadId: string; rootCommentId: number }>;
  replies: ThreadReply[];
}

export interface ReadPriorReviewInput {
  api: Pick<GitHubApi, 'listReviewThreads' | 'listReviews'>;
  repo: RepoRef;
  pull: number;
  /** agent-mux's own logins: only its comments hold findings. */
  selfLogins: readonly string[];
  /** Whether a person may dismiss a finding (the permission that approves): others' "won't fix" or 👎 does not count. */
  mayDismiss(login: string): Promise<boolean>;
}

/**
 * The findings agent-mux posted on this pull request and what became of each: resolved (by
 * agent-mux after the code changed), dismissed (a person with the approvals permission replied
 * "won't fix", "intended", …, put 👎 on it, or resolved its thread), or open; with the other replies
 * people wrote in open threads. Findings outside the diff are read from agent-mux's reviews' bodies.
 */
export async function readPriorReview(input: ReadPriorReviewInput): Promise<PriorReview> {
  const { api, repo, pull, selfLogins } = input;
  const prior: PriorReview = { state: emptyReviewState(pull), threads: new Map(), replies: [] };
  const own = (login: string | undefined) => login !== undefined && isOwnLogin(login, selfLogins);
  const permitted = memoized(input.mayDismiss);

  for (const thread of await api.listReviewThreads(repo, pull)) {
    const root = thread.comments[0];
    if (root === undefined || !own(root.author)) continue;
    const marked = readMarker(root.body);
    if (!marked) continue;
    const finding = posted(marked.id, marked.finding, { commentId: root.id, threadId: thread.id });
    await judge(finding, thread, own, permitted, prior.replies);
    prior.state.findings.push(finding);
    prior.threads.set(finding.id, { threadId: thread.id, rootCommentId: root.id });
  }

  const { data: reviews } = await api.listReviews(repo, pull);
  const seen = new Set(prior.state.findings.map((f) => f.id));
  for (const review of [...reviews].reverse()) {
    if (!own(review.user?.login)) continue;
    for (const line of review.body.split('\n')) {
      const marked = readMarker(line.trim());
      if (!marked || seen.has(marked.id)) continue;
      seen.add(marked.id);
      prior.state.findings.push(posted(marked.id, marked.finding, {}));
    }
  }
  return prior;
}

function readMarker(text: string): { id: string; finding: MarkedFinding } | undefined {
  const match = markers.findingPattern.exec(text);
  const id = match?.[1];
  const finding = match?.[2] === undefined ? undefined : decodeFinding(match[2]);
  return id === undefined || finding === undefined ? undefined : { id, finding };
}

function posted(id: string, marked: MarkedFinding, where: { commentId?: number; threadId?: string }): ReviewedFinding {
  return { id, ...marked, status: 'open', heldOn: marked.postedOn, ...where };
}

/** Sets what became of an inline finding from its thread; keeps the replies of one still open. */
async function judge(
  finding: ReviewedFinding,
  thread: ReviewThreadInfo,
  own: (login: string | undefined) => boolean,
  permitted: (login: string) => Promise<boolean>,
  replies: ThreadReply[],
): Promise<void> {
  const [root, ...rest] = thread.comments;
  if (rest.some((c) => own(c.author) && c.body.startsWith(RESOLVED_REPLY_PREFIX))) {
    finding.status = 'resolved';
    return;
  }
  if (thread.isResolved && thread.resolvedBy !== undefined && !own(thread.resolvedBy)) {
    if (await permitted(thread.resolvedBy)) {
      finding.status = 'dismissed';
      finding.closedBecause = `@${thread.resolvedBy} resolved the thread`;
      return;
    }
  }
  for (const login of root?.thumbsDownBy ?? []) {
    if (!own(login) && (await permitted(login))) {
      finding.status = 'dismissed';
      finding.closedBecause = `@${login} reacted 👎`;
      return;
    }
  }
  const spoken: ThreadReply[] = [];
  for (const reply of rest) {
    if (reply.author === undefined || own(reply.author)) continue;
    if (isDismissal(reply.body) && (await permitted(reply.author))) {
      finding.status = 'dismissed';
      finding.closedBecause = `@${reply.author}: ${reply.body.trim().split('\n')[0]?.slice(0, 200) ?? ''}`;
      return;
    }
    spoken.push({
      findingId: finding.id,
      path: finding.path,
      title: finding.title,
      author: reply.author,
      text: reply.body,
    });
  }
  replies.push(...spoken);
}

function memoized(check: (login: string) => Promise<boolean>): (login: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>();
  return (login) => {
    const key = login.toLowerCase();
    let answer = known.get(key);
    if (answer === undefined) {
      answer = check(login).catch(() => false);
      known.set(key, answer);
    }
    return answer;
  };
}
