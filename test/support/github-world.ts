import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import type { AdapterRegistry } from '../../src/core/registry/adapter-registry.ts';
import { createGitHubApi } from '../../src/github/create-github-api.ts';
import { createOctokit } from '../../src/github/create-octokit.ts';
import type { GitHubApi, RepoRef } from '../../src/github/github-api.ts';
import type { GitHubDeps } from '../../src/github/use-cases/decide-trigger.ts';
import { type FakeGitHub, startFakeGitHub } from './fake-github/fake-github.ts';
import { webhookPayload } from './webhook-payload.ts';

export const WORLD_TOKEN = 'ghs_worldTokenForTests0123456789abcdef';
export const SELF_LOGIN = 'agent-mux[bot]';

/** A README with the typo the demo agent fixes. */
export const TYPO_README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';

export interface GitHubWorld {
  gh: FakeGitHub;
  repo: RepoRef;
  /** The bare repository standing in for GitHub's git server. */
  bare: string;
  /** A clone of it: the checkout the agent works in. */
  workspace: string;
  api: GitHubApi;
  deps: GitHubDeps;
  registry: () => AdapterRegistry;
  git(args: string[], cwd?: string): Promise<string>;
  /** Commits files onto a branch of the bare repository (through a scratch clone); returns the sha. */
  commit(branch: string, files: Record<string, string>, message?: string): Promise<string>;
  close(): Promise<void>;
}

const gitEnv = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * A repository `octo/demo` on the fake GitHub, backed by a real bare git repository, with a
 * README to fix, the given config on `main`, a checkout of it, and users: alice (write), mallory
 * (read), bob (maintain).
 */
export async function createGitHubWorld(
  options: { config?: string; files?: Record<string, string> } = {},
): Promise<GitHubWorld> {
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-world-'));
  const bare = join(root, 'origin.git');
  const workspace = join(root, 'workspace');
  const git = async (args: string[], cwd = root) => (await execa('git', args, { cwd, env: gitEnv })).stdout;
  await git(['init', '--bare', '-q', '-b', 'main', bare]);
  let scratchCount = 0;
  const commit = async (branch: string, files: Record<string, string>, message = 'change') => {
    const scratch = join(root, `scratch-${scratchCount++}`);
    await git(['clone', '-q', bare, scratch]);
    const exists = (await git(['ls-remote', '--heads', 'origin', branch], scratch)).trim() !== '';
    if (exists) await git(['checkout', '-q', branch], scratch);
    else await git(['checkout', '-q', '-b', branch], scratch);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(scratch, path)), { recursive: true });
      await writeFile(join(scratch, path), text);
    }
    await git(['add', '-A'], scratch);
    await git(['commit', '-q', '-m', message], scratch);
    await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], scratch);
    const sha = (await git(['rev-parse', 'HEAD'], scratch)).trim();
    await rm(scratch, { recursive: true, force: true });
    return sha;
  };
  await commit(
    'main',
    {
      'README.md': TYPO_README,
      ...(options.config === undefined ? {} : { '.github/agent-mux.yml': options.config }),
      ...options.files,
    },
    'initial',
  );
  await git(['clone', '-q', bare, workspace]);

  const gh = await startFakeGitHub({ git: { bareRepo: bare } });
  const repo = { owner: 'octo', repo: 'demo' };
  gh.state.addRepo({ ...repo, defaultBranch: 'main' });
  gh.state.setPermission(repo, 'alice', 'write');
  gh.state.setPermission(repo, 'mallory', 'read');
  gh.state.setPermission(repo, 'bob', 'maintain');
  const api = createGitHubApi(createOctokit({ token: WORLD_TOKEN, baseUrl: gh.url, waitScale: 1 }));
  const registry = () => {
    const r = createBuiltinRegistry();
    r.register(demoAdapter({ stepDelayMs: 1 }));
    return r;
  };
  const deps: GitHubDeps = { api, selfLogins: [SELF_LOGIN], builtinAgents: registry().ids() };
  return {
    gh,
    repo,
    bare,
    workspace,
    api,
    deps,
    registry,
    git,
    commit,
    async close() {
      await gh.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Posts a comment on the fake GitHub and returns the `issue_comment.created` webhook GitHub would send. */
export function commentEvent(
  w: GitHubWorld,
  number: number,
  login: string,
  body: string,
  options: { bot?: boolean; pr?: boolean } = {},
) {
  const comment = w.gh.state.addComment(w.repo, number, { body, user: { login, type: options.bot ? 'Bot' : 'User' } });
  const payload = webhookPayload('issue_comment', 'created', {
    owner: w.repo.owner,
    repo: w.repo.repo,
    defaultBranch: 'main', // the world's repository's (createGitHubWorld)
    body,
    login,
    userType: options.bot ? 'Bot' : 'User',
    number,
    title: w.gh.state.issue(w.repo, number)?.title,
    onPullRequest: options.pr,
  });
  Object.assign(payload.comment as object, {
    id: comment.id,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
  });
  return { eventName: 'issue_comment', payload, commentId: comment.id };
}

/**
 * A review comment on the fake (on `path`, line `line` of the pull request's head) and the
 * `pull_request_review_comment.created` webhook GitHub sends for it.
 */
export function reviewCommentEvent(
  w: GitHubWorld,
  c: {
    number: number;
    title: string;
    head: string;
    headRef: string;
    login: string;
    body: string;
    line: number;
    path?: string;
    inReplyToId?: number | undefined;
    diffHunk?: string;
  },
) {
  const path = c.path ?? 'README.md';
  const diffHunk = c.diffHunk ?? `@@ -${c.line} +${c.line} @@`;
  const reply = c.inReplyToId === undefined ? {} : { inReplyToId: c.inReplyToId };
  const comment = w.gh.state.addReviewComment(w.repo, c.number, {
    body: c.body,
    user: c.login,
    path,
    line: c.line,
    side: 'RIGHT',
    diffHunk,
    commitId: c.head,
    ...reply,
  });
  const payload = webhookPayload(
    'pull_request_review_comment',
    'created',
    { owner: w.repo.owner, repo: w.repo.repo, body: c.body, login: c.login, number: c.number, title: c.title },
    (p) => 'line' in (p.comment as object),
  );
  Object.assign(payload.comment as object, {
    id: comment.id,
    path,
    line: c.line,
    original_line: c.line,
    start_line: null,
    original_start_line: null,
    side: 'RIGHT',
    start_side: null,
    diff_hunk: diffHunk,
    commit_id: c.head,
    original_commit_id: c.head,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    ...(c.inReplyToId === undefined ? {} : { in_reply_to_id: c.inReplyToId }),
  });
  Object.assign((payload.pull_request as { head: object }).head, { sha: c.head, ref: c.headRef });
  return { event: { eventName: 'pull_request_review_comment', payload }, comment };
}
