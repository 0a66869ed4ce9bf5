import { isValidBranchName } from '../github/git/is-valid-branch-name.ts';
import type { BareRepo } from './bare-repo.ts';
import type { MemoryGitHubState } from './memory-github-state.ts';

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
const userOf = (value: unknown) => {
  const user = record(value);
  const login = text(user?.login);
  return login ? { login, type: text(user?.type) || 'User' } : undefined;
};

/** The repository a webhook payload belongs to (`repository.owner.login`, `repository.name`), if it names one. */
export function payloadRepo(payload: unknown): { owner: string; repo: string } | undefined {
  const repository = record(record(payload)?.repository);
  const owner = text(record(repository?.owner)?.login);
  const repo = text(repository?.name);
  return owner && repo ? { owner, repo } : undefined;
}

/**
 * A copy of the payload acted by `login` instead: the sender, and the author of the comment, review
 * or (for `issues` events) the issue whose text is the trigger.
 */
export function actAs(eventName: string, payload: unknown, login: string): unknown {
  const copy = structuredClone(record(payload) ?? {});
  const type = login.endsWith('[bot]') ? 'Bot' : 'User';
  const recast = (value: unknown) => ({ ...(record(value) ?? {}), login, type });
  copy.sender = recast(copy.sender);
  for (const key of ['comment', 'review'] as const) {
    const part = record(copy[key]);
    if (part) part.user = recast(part.user);
  }
  const issue = record(copy.issue);
  if (eventName === 'issues' && issue) issue.user = recast(issue.user);
  return copy;
}

/**
 * Seeds the stand-in with what a webhook payload says exists on GitHub: its issue or pull request
 * (number, title, body, author), the triggering comment, review comment or review (with the payload's
 * id, so reactions land on it). A pull request's head is the payload's head branch when the
 * repository has it; otherwise that branch is made, under the payload's name, at the default
 * branch's head (`simulated-pr-<n>` when the payload names none or a name git refuses), and a note
 * says so. A fork's head gets no branch in the base repository. In every case `refs/pull/<n>/head`
 * is written, as GitHub does. Returns the notes: what the simulation made up that the payload
 * did not say.
 */
export async function seedFromPayload(
  state: MemoryGitHubState,
  git: BareRepo,
  eventName: string,
  payload: unknown,
): Promise<string[]> {
  const notes: string[] = [];
  const p = record(payload) ?? {};
  const issue = record(p.issue);
  const pullRequest = record(p.pull_request);
  const repository = record(p.repository);
  const sender = userOf(p.sender) ?? { login: 'ghost', type: 'User' };
  const subject = pullRequest ?? issue;
  let number = positive(subject?.number);
  if (number === undefined && eventName === 'workflow_dispatch') {
    const input = record(p.inputs)?.['issue-number'];
    const parsed = Number(String(input ?? '').replace(/^#/, ''));
    number = positive(parsed);
  }
  if (number === undefined) return notes;

  const title = text(subject?.title) || `Issue #${number}`;
  const body = text(subject?.body);
  const author = userOf(subject?.user) ?? sender;
  const isPull = pullRequest !== undefined || (issue !== undefined && issue.pull_request != null);
  if (!isPull) {
    state.addIssue({ number, title, body, user: author });
  } else {
    const head = record(pullRequest?.head);
    const baseRepo = text(repository?.full_name).toLowerCase();
    const headRepo = record(head?.repo);
    const headFullName = text(headRepo?.full_name).toLowerCase();
    const fromFork = headFullName !== '' && baseRepo !== '' && headFullName !== baseRepo;
    const payloadRef = text(head?.ref);
    const existing = payloadRef && isValidBranchName(payloadRef) ? await git.branchSha(payloadRef) : undefined;
    const headRef = isValidBranchName(payloadRef) ? payloadRef : `simulated-pr-${number}`;
    const baseSha = await git.branchSha(state.defaultBranch);
    const headSha = existing ?? (await git.branchSha(headRef)) ?? baseSha;
    if (headSha === undefined) throw new Error(`the default branch ${state.defaultBranch} has no commit`);
    if (existing === undefined) {
      const at = `${state.defaultBranch}'s head (${headSha.slice(0, 7)})`;
      if (fromFork) {
        notes.push(`the pull request's head is on the fork ${headFullName}: simulated as ${at}`);
      } else {
        await git.updateRef(`refs/heads/${headRef}`, headSha);
        notes.push(
          payloadRef === ''
            ? `the payload names no head branch: made ${headRef} at ${at}`
            : headRef === payloadRef
              ? `the payload's head branch ${payloadRef} is not in this repository: made it at ${at}`
              : `the payload's head branch ${JSON.stringify(payloadRef)} is not a branch name git takes: made ${headRef} at ${at}`,
        );
      }
    }
    await git.updateRef(`refs/pull/${number}/head`, headSha);
    const baseRef = text(record(pullRequest?.base)?.ref);
    state.addPull({
      number,
      title,
      body,
      user: author,
      headRef,
      headSha,
      baseRef: baseRef && (await git.branchSha(baseRef)) !== undefined ? baseRef : state.defaultBranch,
      headOwner: fromFork ? text(record(headRepo?.owner)?.login) || 'fork-owner' : state.repo.owner,
      fromFork,
      maintainerCanModify: pullRequest?.maintainer_can_modify === true,
      draft: pullRequest?.draft === true,
    });
  }

  const comment = record(p.comment);
  const commentId = positive(comment?.id);
  if (comment && commentId !== undefined) {
    const user = userOf(comment.user) ?? sender;
    if (eventName === 'pull_request_review_comment') {
      state.addReviewComment(number, { id: commentId, body: text(comment.body), user });
    } else {
      state.addComment(number, { id: commentId, body: text(comment.body), user });
    }
  }
  const review = record(p.review);
  const reviewId = positive(review?.id);
  if (review && reviewId !== undefined && isPull) {
    state.addReview(number, {
      id: reviewId,
      state: text(review.state).toUpperCase() || 'COMMENTED',
      body: text(review.body),
      user: userOf(review.user) ?? sender,
      commitId: text(review.commit_id) || undefined,
    });
  }
  return notes;
}
