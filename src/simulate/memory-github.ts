import type { GitHubApi, RepoRef, RepoRole } from '../github/github-api.ts';
import { type BareRepo, bareRepo } from './bare-repo.ts';
import { memoryCheckRunMethods } from './memory-check-run-methods.ts';
import { memoryCommentMethods } from './memory-comment-methods.ts';
import { MemoryGitHubContext } from './memory-github-context.ts';
import { MemoryGitHubState } from './memory-github-state.ts';
import { memoryPullMethods } from './memory-pull-methods.ts';
import { memoryRepoMethods } from './memory-repo-methods.ts';
import { memoryReviewMethods } from './memory-review-methods.ts';

export interface MemoryGitHubOptions {
  repo: RepoRef;
  defaultBranch: string;
  /** The bare repository that stands in for GitHub's git server: branches and files are read from it. */
  bareRepo: string;
  /** The login agent-mux posts as. Default `agent-mux[bot]`. */
  selfLogin?: string;
  /** Collaborators' roles by login; the repository owner is always an admin. */
  roles?: Record<string, RepoRole>;
  /** Files served in place of the default branch's (path → text), e.g. an uncommitted `.github/agent-mux.yml`. */
  files?: Record<string, string>;
}

export interface MemoryGitHub {
  api: GitHubApi;
  state: MemoryGitHubState;
  git: BareRepo;
}

/**
 * An in-process GitHub for one repository, backed by a real bare git repository: a faithful
 * implementation of every `GitHubApi` method, for `agent-mux simulate` and for tests. Failures are
 * `GitHubApiError`s with the status GitHub would answer (404 for what does not exist, 422 for what
 * GitHub refuses). Comments, check runs and pull requests are made by `selfLogin`.
 */
export function createMemoryGitHub(options: MemoryGitHubOptions): MemoryGitHub {
  const state = new MemoryGitHubState({
    repo: options.repo,
    defaultBranch: options.defaultBranch,
    selfLogin: options.selfLogin ?? 'agent-mux[bot]',
  });
  for (const [login, role] of Object.entries(options.roles ?? {})) state.setRole(login, role);
  const git = bareRepo(options.bareRepo);
  const ctx = new MemoryGitHubContext(options, state, git);
  const api: GitHubApi = {
    ...memoryRepoMethods(ctx),
    ...memoryCommentMethods(ctx),
    ...memoryCheckRunMethods(ctx),
    ...memoryPullMethods(ctx),
    ...memoryReviewMethods(ctx),
  };
  return { api, state, git };
}
