import { mkdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { runGit } from '../github/git/git.ts';
import { protocolsFor } from '../github/git/hardened-git.ts';
import { forgetPins } from '../github/git/open-repository.ts';
import type { RepoRef } from '../github/github-api.ts';

/** Options of `cloneWorkspace`. */
export interface CloneWorkspaceOptions {
  /** The directory holding every run's workspace. */
  workDir: string;
  runId: string;
  /**
   * The run's attempt (`StoredRun.attempts`): each attempt has a directory of its own, so a worker
   * that lost its lease and has not noticed yet never shares a checkout with the attempt that took
   * the run over (one would clone or remove the other's `.git` under it).
   */
  attempt: number;
  repo: RepoRef;
  /** `https://github.com` (or a GHES URL, or a local directory in tests); the clone is of `<base>/<owner>/<repo>.git`. */
  gitBaseUrl: string;
  /**
   * The installation token; sent as an `http.extraheader` through git's environment
   * (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`), never on its command line
   * (readable by any local user in `/proc/<pid>/cmdline`), never written to `.git/config`.
   */
  token: string;
}

/** The clone URL of a repository under a git base URL. */
export function cloneUrlOf(gitBaseUrl: string, repo: RepoRef): string {
  return `${gitBaseUrl.replace(/\/+$/, '')}/${repo.owner}/${repo.repo}.git`;
}

/**
 * Makes a fresh clone for one attempt of a run in `<workDir>/<runId>.<attempt>` and returns its path. The token travels in
 * the environment as `http.extraheader=AUTHORIZATION: basic …` (see `authEnv`), so `.git/config`
 * holds only the plain URL. What was pinned of an earlier checkout there (`pinRepository`: a
 * retried run's first attempt) is forgotten. Git runs with agent-mux's hardened configuration (`runGit`): HTTPS
 * only, or the `file` protocol when `gitBaseUrl` is a local directory. A failed clone leaves
 * nothing behind.
 */
export async function cloneWorkspace(options: CloneWorkspaceOptions): Promise<string> {
  const dir = join(options.workDir, `${options.runId}.${options.attempt}`);
  await mkdir(dirname(dir), { recursive: true });
  await rm(dir, { recursive: true, force: true });
  // A retry of the run clones into the same path: the checkout there is a new one, pinned anew.
  forgetPins(join(await realpath(dirname(dir)), basename(dir)));
  const url = cloneUrlOf(options.gitBaseUrl, options.repo);
  const serverUrl = /^https?:\/\//.test(options.gitBaseUrl) ? options.gitBaseUrl : undefined;
  try {
    await runGit(['clone', '--quiet', '--no-tags', '--no-recurse-submodules', '--end-of-options', url, dir], {
      cwd: options.workDir,
      token: options.token,
      serverUrl,
      ...protocolsFor(url),
    });
  } catch (error) {
    await removeWorkspace(dir);
    throw error;
  }
  return dir;
}

/** Removes a run's workspace (never throws). */
export async function removeWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
}
