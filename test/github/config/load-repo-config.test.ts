import { describe, expect, it } from 'vitest';
import {
  defaultRepoConfig,
  loadRepoConfig,
  REPO_CONFIG_PATH,
  RepoConfigReadError,
} from '../../../src/github/config/index.ts';
import type { GitHubApi, RepoRef } from '../../../src/github/github-api.ts';
import { GitHubApiError } from '../../../src/github/github-api-error.ts';

const repo: RepoRef = { owner: 'octo', repo: 'demo' };

type Api = Pick<GitHubApi, 'getRepo' | 'getFileText'>;

/** An in-memory repository: `files[branch][path]`; a function value is called instead (to throw). */
function stubApi(files: Record<string, Record<string, string | (() => never)>>, defaultBranch = 'main') {
  const calls: string[] = [];
  const api: Api = {
    async getRepo(ref) {
      calls.push(`getRepo ${ref.owner}/${ref.repo}`);
      return {
        fullName: `${ref.owner}/${ref.repo}`,
        defaultBranch,
        private: false,
        cloneUrl: `https://github.com/${ref.owner}/${ref.repo}.git`,
        htmlUrl: `https://github.com/${ref.owner}/${ref.repo}`,
      };
    },
    async getFileText(_ref, path, gitRef) {
      calls.push(`getFileText ${path}@${gitRef}`);
      const content = files[gitRef]?.[path];
      return typeof content === 'function' ? content() : content;
    },
  };
  return { api, calls };
}

const notFound = (): never => {
  throw Object.assign(new Error('Not Found'), { status: 404 });
};

describe('loadRepoConfig', () => {
  it('reads .github/agent-mux.yml from the default branch, not from a pull request branch', async () => {
    const { api, calls } = stubApi(
      {
        trunk: { [REPO_CONFIG_PATH]: 'trigger:\n  permission: admin\n' },
        'pr-branch': { [REPO_CONFIG_PATH]: 'trigger:\n  permission: read\n' },
      },
      'trunk',
    );
    const result = await loadRepoConfig({ api, repo });
    expect(result).toMatchObject({ ok: true, source: 'file', path: REPO_CONFIG_PATH });
    expect(result.ok && result.config.trigger.permission).toBe('admin');
    expect(calls).toEqual(['getRepo octo/demo', `getFileText ${REPO_CONFIG_PATH}@trunk`]);
  });

  it('uses the given default branch without asking for the repository', async () => {
    const { api, calls } = stubApi({ main: { [REPO_CONFIG_PATH]: 'git: { draft: true }' } });
    const result = await loadRepoConfig({ api, repo, defaultBranch: 'main' });
    expect(result.ok && result.config.git.draft).toBe(true);
    expect(calls).toEqual([`getFileText ${REPO_CONFIG_PATH}@main`]);
  });

  it('falls back to .github/agent-mux.yaml', async () => {
    const { api, calls } = stubApi({ main: { '.github/agent-mux.yaml': 'concurrency: { perIssue: cancel }' } });
    const result = await loadRepoConfig({ api, repo });
    expect(result).toMatchObject({ ok: true, source: 'file', path: '.github/agent-mux.yaml' });
    expect(result.ok && result.config.concurrency.perIssue).toBe('cancel');
    expect(calls.slice(1)).toEqual([`getFileText ${REPO_CONFIG_PATH}@main`, 'getFileText .github/agent-mux.yaml@main']);
  });

  it('prefers .yml when both exist', async () => {
    const { api } = stubApi({
      main: { [REPO_CONFIG_PATH]: 'git: { draft: true }', '.github/agent-mux.yaml': 'git: { draft: false }' },
    });
    const result = await loadRepoConfig({ api, repo });
    expect(result).toMatchObject({ ok: true, path: REPO_CONFIG_PATH, config: { git: { draft: true } } });
  });

  it.each<{ name: string; files: Record<string, () => never> }>([
    { name: 'no file (undefined)', files: {} },
    { name: '404 thrown by the api', files: { [REPO_CONFIG_PATH]: notFound, '.github/agent-mux.yaml': notFound } },
    {
      name: '404 as a GitHubApiError',
      files: {
        [REPO_CONFIG_PATH]: () => {
          throw new GitHubApiError('GET /repos/{owner}/{repo}/contents/{path}', 404, 'Not Found');
        },
      },
    },
  ])('a missing file ($name) gives the defaults', async ({ files }) => {
    const { api } = stubApi({ main: files });
    const result = await loadRepoConfig({ api, repo });
    expect(result).toEqual({ ok: true, source: 'default', path: REPO_CONFIG_PATH, config: defaultRepoConfig() });
  });

  it('an empty file gives the defaults, read from the file', async () => {
    const { api } = stubApi({ main: { [REPO_CONFIG_PATH]: '' } });
    expect(await loadRepoConfig({ api, repo })).toEqual({
      ok: true,
      source: 'file',
      path: REPO_CONFIG_PATH,
      config: defaultRepoConfig(),
    });
  });

  it('returns invalid content as an error, naming the file and line', async () => {
    const { api } = stubApi({ main: { [REPO_CONFIG_PATH]: 'git:\n  drafts: true\n' } });
    const result = await loadRepoConfig({ api, repo });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.path).toBe(REPO_CONFIG_PATH);
      expect(result.error.message).toBe(
        `git.drafts: unknown key "drafts" (did you mean "draft"?) (${REPO_CONFIG_PATH}:2)`,
      );
    }
  });

  it('reads only the given path when one is given (no fallback)', async () => {
    const { api, calls } = stubApi({ main: { '.github/agent-mux.yaml': 'git: { draft: true }' } });
    const result = await loadRepoConfig({ api, repo, path: 'config/agent-mux.yml' });
    expect(result).toMatchObject({ ok: true, source: 'default', path: 'config/agent-mux.yml' });
    expect(calls.slice(1)).toEqual(['getFileText config/agent-mux.yml@main']);
  });

  it.each([
    { name: 'a 500', error: Object.assign(new Error('Server Error'), { status: 500 }) },
    { name: 'a 403', error: new GitHubApiError('GET /repos/{owner}/{repo}/contents/{path}', 403, 'rate limited') },
    { name: 'a network failure', error: new TypeError('fetch failed') },
  ])('throws a RepoConfigReadError on $name', async ({ error }) => {
    const { api } = stubApi({
      main: {
        [REPO_CONFIG_PATH]: () => {
          throw error;
        },
      },
    });
    const thrown = await loadRepoConfig({ api, repo }).catch((e: unknown) => e);
    expect(RepoConfigReadError.isInstance(thrown)).toBe(true);
    if (!RepoConfigReadError.isInstance(thrown)) return;
    expect(thrown.cause).toBe(error);
    expect(thrown).toMatchObject({ repository: 'octo/demo', path: REPO_CONFIG_PATH, branch: 'main' });
    expect(thrown.message).toBe(`could not read ${REPO_CONFIG_PATH} of octo/demo@main: ${error.message}`);
  });

  it('throws a RepoConfigReadError when the repository cannot be read', async () => {
    const failure = Object.assign(new Error('Bad credentials'), { status: 401 });
    const api: Api = {
      getRepo: async () => {
        throw failure;
      },
      getFileText: async () => undefined,
    };
    const thrown = await loadRepoConfig({ api, repo }).catch((e: unknown) => e);
    expect(RepoConfigReadError.isInstance(thrown)).toBe(true);
    expect((thrown as RepoConfigReadError).cause).toBe(failure);
  });
});
