import type { GitHubApi, RepoRef } from '../github-api.ts';
import { statusOf } from '../github-api-error.ts';
import { parseRepoConfig, type RepoConfigResult } from './parse-repo-config.ts';
import { RepoConfigReadError } from './repo-config-read-error.ts';
import { defaultRepoConfig } from './repo-config-schema.ts';

export { parseRepoConfig, type RepoConfigResult } from './parse-repo-config.ts';

/** Where the repository configuration lives. */
export const REPO_CONFIG_PATH = '.github/agent-mux.yml';
/** Read when `REPO_CONFIG_PATH` does not exist. */
export const REPO_CONFIG_FALLBACK_PATH = '.github/agent-mux.yaml';

/**
 * Reads the config from the DEFAULT branch only (a PR can't change the rules it runs under).
 * `defaultBranch` saves the `getRepo` call when the caller knows it (a webhook payload does).
 * Without `path`, `.github/agent-mux.yml` is read, else `.github/agent-mux.yaml`; when neither
 * exists the result is the default configuration (`source: 'default'`). Invalid content is
 * returned as `ok: false`; a GitHub failure other than 404 throws a `RepoConfigReadError`.
 */
export async function loadRepoConfig(input: {
  api: Pick<GitHubApi, 'getRepo' | 'getFileText'>;
  repo: RepoRef;
  path?: string;
  defaultBranch?: string;
}): Promise<RepoConfigResult> {
  const { api, repo } = input;
  const fullName = `${repo.owner}/${repo.repo}`;
  const candidates = input.path === undefined ? [REPO_CONFIG_PATH, REPO_CONFIG_FALLBACK_PATH] : [input.path];

  let branch = input.defaultBranch;
  if (branch === undefined) {
    try {
      branch = (await api.getRepo(repo)).defaultBranch;
    } catch (error) {
      throw new RepoConfigReadError(fullName, candidates[0]!, undefined, { cause: error });
    }
  }

  for (const path of candidates) {
    let text: string | undefined;
    try {
      text = await api.getFileText(repo, path, branch);
    } catch (error) {
      if (statusOf(error) === 404) text = undefined;
      else throw new RepoConfigReadError(fullName, path, branch, { cause: error });
    }
    if (text !== undefined) return parseRepoConfig(text, path);
  }
  return { ok: true, config: defaultRepoConfig(), source: 'default', path: candidates[0]! };
}
