import type { GitHubApi, PullInfo, RepoRef } from '../github-api.ts';
import { pullRequestRefused } from './pull-request-refused.ts';

/**
 * The one place agent-mux opens pull requests (a run on an issue, and a fork's delivery branch):
 * the open pull request of `head` in `repo` when there is one, else a new one. A 403 becomes
 * `pull_request_refused`, which names the setting or permission that is missing and the branch
 * the changes were pushed to.
 */
export async function openPullRequest(
  api: Pick<GitHubApi, 'findOpenPull' | 'createPull'>,
  repo: RepoRef,
  pull: { title: string; head: string; base: string; draft: boolean; body: string },
): Promise<PullInfo> {
  const existing = await api.findOpenPull(repo, repo.owner, pull.head);
  if (existing) return existing;
  return api.createPull(repo, pull).catch((error: unknown) => {
    throw pullRequestRefused(error, pull.head);
  });
}
