import type { GitHubApi } from '../github/github-api.ts';

/** Options of `createRepoReadCache`. */
export interface RepoReadCacheOptions {
  /** How long a repository's metadata and config file are reused. Default 30 000 ms. */
  ttlMs?: number;
  /** Entries kept at most (the oldest go first). Default 5 000. */
  maxEntries?: number;
  now?: () => number;
}

/** Wraps one installation's API so that its repository and config reads are shared for a while. */
export interface RepoReadCache {
  wrap(installationId: number, api: GitHubApi): GitHubApi;
}

/**
 * Remembers, per installation, `getRepo` (the default branch) and `getFileText` (the repository's
 * agent-mux config) for `ttlMs`: a burst of comments on one repository reads them once, not three
 * GitHub calls per comment. Concurrent reads of one key share one request; a failed read is not kept.
 * A config pushed to the default branch applies after at most `ttlMs`.
 */
export function createRepoReadCache(options: RepoReadCacheOptions = {}): RepoReadCache {
  const ttlMs = options.ttlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 5_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();

  function remember<T>(key: string, read: () => Promise<T>): Promise<T> {
    const hit = entries.get(key);
    if (hit !== undefined && now() - hit.at < ttlMs) return hit.value as Promise<T>;
    const value = read();
    entries.delete(key);
    entries.set(key, { at: now(), value });
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  }

  return {
    wrap(installationId, api) {
      const scope = (owner: string, repo: string) => `${installationId}\0${owner.toLowerCase()}/${repo.toLowerCase()}`;
      return {
        ...api,
        getRepo: (ref) => remember(`${scope(ref.owner, ref.repo)}\0repo`, () => api.getRepo(ref)),
        getFileText: (ref, path, gitRef) =>
          remember(`${scope(ref.owner, ref.repo)}\0file\0${gitRef}\0${path}`, () => api.getFileText(ref, path, gitRef)),
      };
    },
  };
}
