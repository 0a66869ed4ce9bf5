import type {
  MemoryActionsCache,
  MemoryCheckRun,
  MemoryComment,
  MemoryGitHubState,
  MemoryIssue,
  MemoryPull,
  MemoryWorkflowRun,
} from '../../../src/simulate/memory-github-state.ts';
import { FakeGitHubHost } from './fake-github-host.ts';
import {
  type FakeCheckRun,
  type FakeComment,
  type FakeIssue,
  type FakePull,
  type FakeReaction,
  type FakeReview,
  type FakeReviewComment,
  type FakeWorkflowRun,
  fakeSha,
  type RepoRef,
  type ReviewCommentPlace,
  repoKey,
  type UserInput,
} from './fake-github-records.ts';
import {
  fakeCheckRunOf,
  fakeCommentOf,
  fakeIssueOf,
  fakePullOf,
  fakeReactionOf,
  fakeReviewCommentOf,
  fakeReviewOf,
  fakeWorkflowRunOf,
} from './fake-github-views.ts';

/** What a pull request is made of, beyond its number and timestamps (the fake's `createPull`). */
export interface FakePullInput {
  title: string;
  body: string;
  user: UserInput;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** Owner of the head repository; undefined when the fork is deleted. */
  headOwner: string | undefined;
  fromFork: boolean;
  maintainerCanModify: boolean;
  draft: boolean;
}

/**
 * Everything the fake GitHub knows: seeded by tests (`addRepo`, `addIssue`, …), changed by requests,
 * and inspected afterwards (`comments`, `checkRuns`, `reactions`, …).
 *
 * Each repository's issues, pull requests, comments, reviews, check runs, reactions, workflow runs
 * and roles are kept by one `MemoryGitHubState`, the store `agent-mux simulate` uses; what this class
 * hands out are snapshots of those records in the fake's shape (`fake-github-views.ts`), read again
 * after each change. What spans repositories (repositories, accounts, teams, tokens, the app) is kept
 * by `FakeGitHubHost`.
 */
export class FakeGitHubState extends FakeGitHubHost {
  // ── issues and pulls (kept in the in-memory state) ─────────────────────

  /** A number for a new issue: the one wanted (an Error when taken) or the next free one. */
  #number(ref: RepoRef, memory: MemoryGitHubState, wanted: number | undefined): number {
    const number = wanted ?? memory.nextNumber();
    if (memory.issues.has(number)) throw new Error(`fake GitHub: ${repoKey(ref)}#${number} already exists`);
    return number;
  }

  /** Adds an issue. */
  addIssue(ref: RepoRef, options: { number?: number; title: string; body?: string; user: UserInput }): FakeIssue {
    const memory = this.requireMemory(ref);
    const number = this.#number(ref, memory, options.number);
    const { login, type } = this.addUser(options.user);
    const issue = memory.addIssue({ number, title: options.title, body: options.body ?? '', user: { login, type } });
    return this.#issueView(memory, issue);
  }

  /**
   * Adds a pull request. Without `headSha` the head is the branch's sha (from git when backed, else made
   * up). With git backing, `refs/pull/N/head` is written into the bare repository.
   */
  addPull(
    ref: RepoRef,
    options: {
      number?: number;
      title: string;
      body?: string;
      headRef: string;
      headSha?: string;
      baseRef?: string;
      /** True (fork owned by `fork-owner`), an owner name, or `'deleted'` (head repository gone). */
      fromFork?: boolean | string;
      maintainerCanModify?: boolean;
      draft?: boolean;
      user: UserInput;
    },
  ): FakePull {
    const repo = this.requireRepo(ref);
    const fork = options.fromFork ?? false;
    const fromFork = fork !== false;
    const headOwner =
      fork === 'deleted' ? undefined : fork === true ? 'fork-owner' : fromFork ? String(fork) : repo.owner;
    if (headOwner !== undefined) this.addUser(headOwner);
    let headSha = options.headSha;
    if (headSha === undefined && this.git !== undefined && !fromFork) {
      headSha = this.git.commitOfSync(`refs/heads/${options.headRef}`);
    }
    headSha ??= repo.branches.get(options.headRef) ?? fakeSha(`${repoKey(ref)}:${options.headRef}:${fork}`);
    if (!fromFork && this.git === undefined && !repo.branches.has(options.headRef)) {
      repo.branches.set(options.headRef, headSha);
    }
    return this.#storePull(ref, options.number, {
      title: options.title,
      body: options.body ?? '',
      user: options.user,
      headRef: options.headRef,
      headSha,
      baseRef: options.baseRef ?? repo.defaultBranch,
      headOwner,
      fromFork,
      maintainerCanModify: options.maintainerCanModify ?? false,
      draft: options.draft ?? false,
    });
  }

  /** Adds a pull request created through the API (numbered after the existing ones). */
  createPull(ref: RepoRef, pull: FakePullInput): FakePull {
    return this.#storePull(ref, undefined, pull);
  }

  /** Stores a pull request in the repository's in-memory state; `refs/pull/N/head` too when git-backed. */
  #storePull(ref: RepoRef, wanted: number | undefined, input: FakePullInput): FakePull {
    const memory = this.requireMemory(ref);
    const number = this.#number(ref, memory, wanted);
    const { login, type } = this.addUser(input.user);
    const pull = memory.addPull({ ...input, number, user: { login, type } });
    this.git?.updateRefSync(`refs/pull/${number}/head`, input.headSha);
    return this.#pullView(memory, pull);
  }

  /** A new push to a pull request's head (moves `refs/pull/N/head` too when git-backed). */
  pushHead(ref: RepoRef, pullNumber: number, newSha: string): void {
    const pull = this.#pullRecord(ref, pullNumber);
    if (pull === undefined) throw new Error(`fake GitHub: no pull ${repoKey(ref)}#${pullNumber}`);
    pull.pull.headSha = newSha;
    pull.updatedAt = this.timestamp();
    const repo = this.requireRepo(ref);
    if (!pull.pull.fromFork && this.git === undefined) repo.branches.set(pull.pull.headRef, newSha);
    this.git?.updateRefSync(`refs/pull/${pullNumber}/head`, newSha);
  }

  /** A pull request of a repository as stored. */
  #pullRecord(ref: RepoRef, number: number): MemoryPull | undefined {
    return this.memory(ref)?.pull(number);
  }

  /** An issue or pull request by number (a snapshot). */
  issue(ref: RepoRef, number: number): FakeIssue | FakePull | undefined {
    const memory = this.memory(ref);
    const issue = memory?.issues.get(number);
    return memory === undefined || issue === undefined ? undefined : this.#issueView(memory, issue);
  }

  /** A pull request by number (undefined for a plain issue; a snapshot). */
  pull(ref: RepoRef, number: number): FakePull | undefined {
    const memory = this.memory(ref);
    const pull = memory?.pull(number);
    return memory === undefined || pull === undefined ? undefined : this.#pullView(memory, pull);
  }

  /** All pull requests of a repository, in the order they were made (snapshots). */
  pulls(ref: RepoRef): FakePull[] {
    const memory = this.memory(ref);
    return memory === undefined ? [] : memory.pulls().map((pull) => this.#pullView(memory, pull));
  }

  /** Users and teams whose review is requested on a pull request. */
  reviewRequests(ref: RepoRef, number: number): { users: string[]; teams: string[] } {
    const pull = this.#pullRecord(ref, number)?.pull;
    return { users: [...(pull?.requestedReviewers ?? [])], teams: [...(pull?.requestedTeams ?? [])] };
  }

  #issueView(memory: MemoryGitHubState, issue: MemoryIssue): FakeIssue | FakePull {
    return fakeIssueOf(repoKey(memory.repo), memory.repo.repo, issue, this.account(issue.user));
  }

  #pullView(memory: MemoryGitHubState, pull: MemoryPull): FakePull {
    return fakePullOf(repoKey(memory.repo), memory.repo.repo, pull, this.account(pull.user));
  }

  // ── comments, reviews, reactions ───────────────────────────────────────

  /** Adds an issue (or PR conversation) comment (kept in the repository's in-memory state). */
  addComment(ref: RepoRef, issueNumber: number, options: { body: string; user: UserInput }): FakeComment {
    const memory = this.memory(ref);
    if (memory?.issues.has(issueNumber) !== true)
      throw new Error(`fake GitHub: no issue ${repoKey(ref)}#${issueNumber}`);
    const user = this.addUser(options.user);
    const comment = memory.addComment(issueNumber, {
      body: options.body,
      user: { login: user.login, type: user.type },
    });
    return fakeCommentOf(repoKey(ref), comment, user);
  }

  /** An issue comment of a repository as stored, for the routes that change it. */
  commentRecord(ref: RepoRef, id: number): MemoryComment | undefined {
    return this.memory(ref)?.commentsById.get(id);
  }

  /** One issue comment by id, in any repository (a snapshot). */
  comment(id: number): FakeComment | undefined {
    return this.findInAny(
      (memory) => memory.commentsById.get(id),
      (key, comment) => fakeCommentOf(key, comment, this.account(comment.user)),
    );
  }

  /** The comments on an issue, oldest first (snapshots). */
  comments(ref: RepoRef, issueNumber: number): FakeComment[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.comments(issueNumber) ?? []).map((c) => fakeCommentOf(key, c, this.account(c.user)));
  }

  /** Every reaction created, in order, in every repository (snapshots). */
  get reactions(): FakeReaction[] {
    return this.memories().flatMap(([key, memory]) =>
      memory.reactions.map((r) => fakeReactionOf(key, r, this.account(r.user))),
    );
  }

  /** Adds a pull request review comment (a comment on a diff line), kept in the in-memory state. */
  addReviewComment(
    ref: RepoRef,
    pullNumber: number,
    options: { body: string; user: UserInput; path?: string } & ReviewCommentPlace,
  ): FakeReviewComment {
    const memory = this.requireMemory(ref);
    const line = options.line ?? 1;
    const startLine = options.startLine;
    const originalLine = options.originalLine ?? line;
    const originalStartLine = options.originalStartLine ?? startLine;
    const commitId = options.commitId ?? memory.pull(pullNumber)?.pull.headSha ?? '0'.repeat(40);
    const user = this.addUser(options.user);
    const comment = memory.addReviewComment(pullNumber, {
      body: options.body,
      user: { login: user.login, type: user.type },
      location: {
        path: options.path ?? 'README.md',
        lines: { start: startLine ?? line, end: line },
        originalLines: { start: originalStartLine ?? originalLine, end: originalLine },
        side: options.side ?? 'RIGHT',
        startSide: startLine === undefined ? undefined : (options.startSide ?? options.side ?? 'RIGHT'),
        diffHunk: options.diffHunk ?? `@@ -${line} +${line} @@`,
      },
      ...(options.reviewId === undefined ? {} : { reviewId: options.reviewId }),
      ...(options.inReplyToId === undefined ? {} : { inReplyToId: options.inReplyToId }),
      commitId,
      originalCommitId: options.originalCommitId ?? commitId,
    });
    return fakeReviewCommentOf(repoKey(ref), comment, user);
  }

  /** The review comments of a pull request, oldest first (snapshots). */
  reviewComments(ref: RepoRef, pullNumber: number): FakeReviewComment[] {
    const key = repoKey(ref);
    return [...(this.memory(ref)?.reviewComments.values() ?? [])]
      .filter((c) => c.pullNumber === pullNumber)
      .map((c) => fakeReviewCommentOf(key, c, this.account(c.user)));
  }

  /** One review comment by id, in any repository (a snapshot). */
  reviewComment(id: number): FakeReviewComment | undefined {
    return this.findInAny(
      (memory) => memory.reviewComments.get(id),
      (key, comment) => fakeReviewCommentOf(key, comment, this.account(comment.user)),
    );
  }

  /** Adds a submitted review (kept in the in-memory state). `commitId` defaults to the pull's head sha. */
  addReview(
    ref: RepoRef,
    pullNumber: number,
    options: { state: FakeReview['state']; body?: string; user: UserInput; commitId?: string },
  ): FakeReview {
    const memory = this.memory(ref);
    const pull = memory?.pull(pullNumber);
    if (memory === undefined || pull === undefined)
      throw new Error(`fake GitHub: no pull ${repoKey(ref)}#${pullNumber}`);
    const user = this.addUser(options.user);
    const review = memory.addReview(pullNumber, {
      state: options.state,
      body: options.body ?? '',
      user: { login: user.login, type: user.type },
      commitId: options.commitId ?? pull.pull.headSha,
    });
    return fakeReviewOf(repoKey(ref), review, user);
  }

  /** The reviews of a pull request, oldest first (snapshots). */
  reviews(ref: RepoRef, pullNumber: number): FakeReview[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.reviews ?? [])
      .filter((r) => r.pullNumber === pullNumber)
      .map((r) => fakeReviewOf(key, r, this.account(r.user)));
  }

  // ── check runs (kept in the in-memory state) ───────────────────────────

  /** A check run of a repository as stored, for the routes that change it. */
  checkRunRecord(ref: RepoRef, id: number): MemoryCheckRun | undefined {
    return this.memory(ref)?.checkRunsById.get(id);
  }

  /** One check run by id (a snapshot). */
  checkRun(id: number): FakeCheckRun | undefined {
    return this.findInAny(
      (memory) => memory.checkRunsById.get(id),
      (key, run) => fakeCheckRunOf(key, run, this.account(run.creator)),
    );
  }

  /** The check runs of a repository, in creation order (snapshots). */
  checkRuns(ref: RepoRef): FakeCheckRun[] {
    const key = repoKey(ref);
    return (this.memory(ref)?.checkRuns() ?? []).map((run) => fakeCheckRunOf(key, run, this.account(run.creator)));
  }

  // ── workflow runs (kept in the in-memory state) ────────────────────────

  /** Adds a GitHub Actions workflow run. */
  addWorkflowRun(
    ref: RepoRef,
    options: {
      id?: number;
      name?: string;
      event?: string;
      status?: string;
      conclusion?: string | null;
      headBranch?: string;
      headSha?: string;
    },
  ): FakeWorkflowRun {
    const repo = this.requireRepo(ref);
    const run = this.requireMemory(ref).addWorkflowRun({
      ...options,
      headSha: options.headSha ?? repo.branches.get(repo.defaultBranch) ?? fakeSha('run'),
    });
    return this.#workflowRunView(repoKey(ref), run);
  }

  #workflowRunView(key: string, run: MemoryWorkflowRun): FakeWorkflowRun {
    return fakeWorkflowRunOf(key, run, fakeSha('run'));
  }

  /** A workflow run of a repository as stored, for the routes that change it. */
  workflowRunRecord(ref: RepoRef, id: number): MemoryWorkflowRun | undefined {
    return this.memory(ref)?.workflowRuns.get(id);
  }

  /** The workflow runs of a repository, newest first (as the API lists them; snapshots). */
  workflowRuns(ref: RepoRef): FakeWorkflowRun[] {
    const key = repoKey(ref);
    return [...(this.memory(ref)?.workflowRuns.values() ?? [])].map((r) => this.#workflowRunView(key, r)).reverse();
  }

  /** One workflow run by id (a snapshot). */
  workflowRun(id: number): FakeWorkflowRun | undefined {
    return this.findInAny(
      (memory) => memory.workflowRuns.get(id),
      (key, run) => this.#workflowRunView(key, run),
    );
  }

  // ── Actions cache entries (kept in the in-memory state, or in a linked cache service) ──

  /** Adds an Actions cache entry to a repository not linked to a cache service. */
  addActionsCache(ref: RepoRef, options: { key: string; ref?: string; sizeBytes?: number }): MemoryActionsCache {
    return this.requireMemory(ref).addActionsCache(options);
  }

  /**
   * Makes a repository's Actions cache entries (`GET /repos/{owner}/{repo}/actions/caches`) those a
   * cache service keeps, e.g. the stand-in's `state` (test/support/fake-actions-cache): finalized
   * entries only, each on `gitRef` (default: the default branch), since the stand-in knows no branch.
   */
  linkActionsCache(
    ref: RepoRef,
    cache: {
      entries: readonly {
        id: number;
        key: string;
        version: string;
        createdAt: number;
        finalized: boolean;
        sizeBytes?: number;
      }[];
    },
    gitRef?: string,
  ): void {
    const memory = this.requireMemory(ref);
    const branch = gitRef ?? `refs/heads/${this.requireRepo(ref).defaultBranch}`;
    memory.actionsCacheSource = () =>
      cache.entries
        .filter((e) => e.finalized)
        .map((e) => ({
          id: e.id,
          key: e.key,
          ref: branch,
          version: e.version,
          createdAt: new Date(e.createdAt).toISOString(),
          sizeBytes: e.sizeBytes ?? 0,
        }));
  }

  /** A repository's Actions cache entries whose key starts with `keyPrefix`, oldest first. */
  actionsCaches(ref: RepoRef, keyPrefix = ''): MemoryActionsCache[] {
    return this.memory(ref)?.actionsCaches(keyPrefix) ?? [];
  }
}
