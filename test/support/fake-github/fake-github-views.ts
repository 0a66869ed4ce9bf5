import type {
  MemoryCheckRun,
  MemoryComment,
  MemoryIssue,
  MemoryPull,
  MemoryReaction,
  MemoryReview,
  MemoryReviewComment,
  MemoryWorkflowRun,
} from '../../../src/simulate/memory-github-state.ts';
import type {
  FakeCheckRun,
  FakeComment,
  FakeIssue,
  FakePull,
  FakeReaction,
  FakeReview,
  FakeReviewComment,
  FakeUser,
  FakeWorkflowRun,
} from './fake-github-records.ts';

/** An issue (or a pull request) of the shared in-memory state as the HTTP fake's tests read it: a snapshot. */
export function fakeIssueOf(
  repoKey: string,
  repoName: string,
  issue: MemoryIssue,
  user: FakeUser,
): FakeIssue | FakePull {
  if (issue.pull !== undefined) return fakePullOf(repoKey, repoName, { ...issue, pull: issue.pull }, user);
  return {
    repoKey,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    user,
    state: issue.state,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
  };
}

/**
 * A pull request of the shared in-memory state as the HTTP fake's tests read it (a snapshot): the
 * head repository is the fork's namesake, as the fake's forks are, and none when the fork is deleted.
 */
export function fakePullOf(repoKey: string, repoName: string, pull: MemoryPull, user: FakeUser): FakePull {
  const fields = pull.pull;
  return {
    repoKey,
    number: pull.number,
    title: pull.title,
    body: pull.body,
    user,
    state: pull.state,
    createdAt: pull.createdAt,
    updatedAt: pull.updatedAt,
    headRef: fields.headRef,
    headSha: fields.headSha,
    baseRef: fields.baseRef,
    headOwner: fields.headOwner,
    headRepo: fields.headOwner === undefined ? undefined : repoName,
    fromFork: fields.fromFork,
    maintainerCanModify: fields.maintainerCanModify,
    draft: fields.draft,
    requestedReviewers: [...fields.requestedReviewers],
    requestedTeams: [...fields.requestedTeams],
  };
}

/**
 * A check run of the shared in-memory state as the HTTP fake's tests read it (GitHub's nulls,
 * snake_case annotations, the creator as a known user): a snapshot, read again after each change.
 */
export function fakeCheckRunOf(repoKey: string, run: MemoryCheckRun, creator: FakeUser): FakeCheckRun {
  return {
    id: run.id,
    repoKey,
    name: run.name,
    headSha: run.headSha,
    status: run.status,
    conclusion: run.conclusion ?? null,
    startedAt: run.startedAt ?? null,
    completedAt: run.completedAt ?? null,
    externalId: run.externalId ?? null,
    detailsUrl: run.detailsUrl ?? null,
    output: {
      title: run.output.title ?? null,
      summary: run.output.summary ?? null,
      text: run.output.text ?? null,
      annotations: run.annotations.map((a) => ({
        path: a.path,
        start_line: a.startLine,
        end_line: a.endLine,
        annotation_level: a.level,
        message: a.message,
        ...(a.title === undefined ? {} : { title: a.title }),
      })),
    },
    actions: run.actions.map((a) => ({ ...a })),
    creator,
    updates: run.updates,
  };
}

/** A workflow run of the shared in-memory state as the HTTP fake's tests read it: a snapshot. */
export function fakeWorkflowRunOf(repoKey: string, run: MemoryWorkflowRun, headSha: string): FakeWorkflowRun {
  return {
    id: run.id,
    repoKey,
    name: run.name,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion ?? null,
    headBranch: run.headBranch,
    headSha: run.headSha ?? headSha,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    cancelRequested: run.cancelRequested,
  };
}

/** An issue comment of the shared in-memory state as the HTTP fake's tests read it: a snapshot. */
export function fakeCommentOf(repoKey: string, comment: MemoryComment, user: FakeUser): FakeComment {
  return {
    id: comment.id,
    repoKey,
    issueNumber: comment.issueNumber,
    body: comment.body,
    user,
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    lastEditedAt: comment.lastEditedAt ?? null,
  };
}

/** A reaction of the shared in-memory state as the HTTP fake's tests read it: a snapshot. */
export function fakeReactionOf(repoKey: string, reaction: MemoryReaction, user: FakeUser): FakeReaction {
  return {
    id: reaction.id,
    repoKey,
    target: { ...reaction.target },
    content: reaction.content,
    user,
    createdAt: reaction.createdAt,
  };
}

/** A pull request review of the shared in-memory state as the HTTP fake's tests read it: a snapshot. */
export function fakeReviewOf(repoKey: string, review: MemoryReview, user: FakeUser): FakeReview {
  return {
    id: review.id,
    repoKey,
    pullNumber: review.pullNumber,
    // The fake only ever stores GitHub's review states (its routes and seeds take no other).
    state: review.state as FakeReview['state'],
    body: review.body,
    user,
    commitId: review.commitId ?? '',
    submittedAt: review.submittedAt,
  };
}

/**
 * A review comment of the shared in-memory state as the HTTP fake's tests read it (a snapshot). The
 * fake stores every comment with a place; a comment without one reads as line 1 of README.md.
 */
export function fakeReviewCommentOf(repoKey: string, comment: MemoryReviewComment, user: FakeUser): FakeReviewComment {
  const place = comment.location;
  const lines = place?.lines ?? place?.originalLines ?? { start: 1, end: 1 };
  const original = place?.originalLines ?? lines;
  const multiLine = place?.startSide !== undefined;
  const commitId = comment.commitId ?? '0'.repeat(40);
  return {
    id: comment.id,
    repoKey,
    pullNumber: comment.pullNumber,
    body: comment.body,
    path: place?.path ?? 'README.md',
    user,
    createdAt: comment.createdAt,
    reviewId: comment.reviewId ?? null,
    inReplyToId: comment.inReplyToId,
    line: lines.end,
    startLine: multiLine ? lines.start : null,
    side: place?.side ?? 'RIGHT',
    startSide: place?.startSide ?? null,
    originalLine: original.end,
    originalStartLine: multiLine || original.start !== original.end ? original.start : null,
    diffHunk: place?.diffHunk ?? `@@ -${lines.end} +${lines.end} @@`,
    commitId,
    originalCommitId: comment.originalCommitId ?? commitId,
  };
}
