import { createHash } from 'node:crypto';
import type { CommentInfo, Conditional, PullInfo, RepoRef, ReviewCommentInfo } from '../github/github-api.ts';
import { GitHubApiError } from '../github/github-api-error.ts';
import type { BareRepo } from './bare-repo.ts';
import type { MemoryGitHubOptions } from './memory-github.ts';
import type {
  MemoryComment,
  MemoryGitHubState,
  MemoryIssue,
  MemoryPullFields,
  MemoryReviewComment,
} from './memory-github-state.ts';

/** Fails a call as GitHub answers it: a `GitHubApiError` with the status and message. */
export function fail(operation: string, status: number, message: string): never {
  throw new GitHubApiError(operation, status, message);
}

/** A list answered as GitHub answers a conditional request: not modified when `etag` is the data's own. */
export function conditional<T>(data: T[], etag: string | undefined): Conditional<T[]> {
  const current = `W/"${createHash('sha1').update(JSON.stringify(data)).digest('hex')}"`;
  return etag === current ? { notModified: true, etag, data: [] } : { notModified: false, etag: current, data };
}

/**
 * What every group of the in-memory GitHub's methods works on: its options, state and bare
 * repository, the lookups that fail as GitHub does (404 for another repository or what does not
 * exist) and the records as the API answers them.
 */
export class MemoryGitHubContext {
  readonly options: MemoryGitHubOptions;
  readonly state: MemoryGitHubState;
  readonly git: BareRepo;
  /** `owner/repo`. */
  readonly fullName: string;
  /** The repository's web address. */
  readonly html: string;

  constructor(options: MemoryGitHubOptions, state: MemoryGitHubState, git: BareRepo) {
    this.options = options;
    this.state = state;
    this.git = git;
    this.fullName = `${options.repo.owner}/${options.repo.repo}`;
    this.html = `https://github.com/${this.fullName}`;
  }

  /** A 404 unless `ref` names this repository (owner and name compared case-insensitively). */
  checkRepo(operation: string, ref: RepoRef): void {
    if (
      ref.owner.toLowerCase() !== this.options.repo.owner.toLowerCase() ||
      ref.repo.toLowerCase() !== this.options.repo.repo.toLowerCase()
    ) {
      fail(operation, 404, 'Not Found');
    }
  }

  /** An issue or pull request of this repository, or a 404. */
  issueOf(operation: string, ref: RepoRef, number: number): MemoryIssue {
    this.checkRepo(operation, ref);
    return this.state.issues.get(number) ?? fail(operation, 404, 'Not Found');
  }

  /** A pull request of this repository, or a 404 (also for a plain issue). */
  pullOf(operation: string, ref: RepoRef, number: number): { issue: MemoryIssue; pull: MemoryPullFields } {
    const issue = this.issueOf(operation, ref, number);
    return issue.pull === undefined ? fail(operation, 404, 'Not Found') : { issue, pull: issue.pull };
  }

  commentInfo(c: MemoryComment): CommentInfo {
    return {
      id: c.id,
      body: c.body,
      htmlUrl: `${this.html}/issues/${c.issueNumber}#issuecomment-${c.id}`,
      user: { ...c.user },
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    };
  }

  /** A pull request as GitHub shows it: a same-repository head and the base read live from their branches. */
  async pullInfo(issue: MemoryIssue, pull: MemoryPullFields): Promise<PullInfo> {
    const headSha = pull.fromFork ? pull.headSha : ((await this.git.branchSha(pull.headRef)) ?? pull.headSha);
    const baseSha = (await this.git.branchSha(pull.baseRef)) ?? '';
    return {
      number: issue.number,
      htmlUrl: `${this.html}/pull/${issue.number}`,
      state: issue.state,
      headSha,
      headRef: pull.headRef,
      headRepoFullName: pull.headOwner === undefined ? undefined : `${pull.headOwner}/${this.options.repo.repo}`,
      headCloneUrl: pull.headOwner === undefined ? undefined : (pull.headCloneUrl ?? this.options.bareRepo),
      baseRef: pull.baseRef,
      baseSha,
      maintainerCanModify: pull.maintainerCanModify,
      fromFork: pull.fromFork,
    };
  }

  /** A review comment as GitHub shows it; one seeded without a location is on line 1 of README.md. */
  reviewCommentInfo(comment: MemoryReviewComment): ReviewCommentInfo {
    const location = comment.location ?? {
      path: 'README.md',
      lines: { start: 1, end: 1 },
      originalLines: { start: 1, end: 1 },
      side: 'RIGHT',
      startSide: undefined,
      diffHunk: '',
    };
    return {
      id: comment.id,
      body: comment.body,
      user: { ...comment.user },
      ...location,
      htmlUrl: `${this.html}/pull/${comment.pullNumber}#discussion_r${comment.id}`,
      inReplyToId: comment.inReplyToId,
      createdAt: comment.createdAt,
      updatedAt: comment.createdAt,
    };
  }
}
