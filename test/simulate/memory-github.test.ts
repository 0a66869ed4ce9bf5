import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitHubApiError } from '../../src/github/github-api-error.ts';
import { createMemoryGitHub, type MemoryGitHub } from '../../src/simulate/memory-github.ts';
import { createSimulateFixture, git, type SimulateFixture, TYPO_README } from './simulate-fixture.ts';

const repo = { owner: 'octo', repo: 'demo' };
let fixture: SimulateFixture;
let bare: string;
let gh: MemoryGitHub;

beforeAll(async () => {
  fixture = await createSimulateFixture({ '.github/agent-mux.yml': 'defaultAgent: demo\n', 'docs/a.md': 'a\n' });
  bare = await fixture.bare();
  await git(bare, 'branch', 'feature', 'main');
});
afterAll(() => fixture.cleanup());
beforeEach(() => {
  gh = createMemoryGitHub({ repo, defaultBranch: 'main', bareRepo: bare, roles: { alice: 'write', Bob: 'maintain' } });
});

/** The status of the GitHubApiError a call rejects with. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (GitHubApiError.isInstance(error)) return error.status;
    throw error;
  }
  return undefined;
}

describe('createMemoryGitHub: repository, permissions, teams', () => {
  it('getRepo describes the one repository; any other is 404', async () => {
    expect(await gh.api.getRepo(repo)).toEqual({
      fullName: 'octo/demo',
      defaultBranch: 'main',
      private: false,
      cloneUrl: bare,
      htmlUrl: 'https://github.com/octo/demo',
    });
    expect(await gh.api.getRepo({ owner: 'OCTO', repo: 'Demo' })).toMatchObject({ fullName: 'octo/demo' });
    expect(await statusOf(gh.api.getRepo({ owner: 'octo', repo: 'other' }))).toBe(404);
  });

  it.each([
    ['alice', 'write'],
    ['bob', 'maintain'],
    ['octo', 'admin'],
    ['stranger', 'none'],
  ])('getPermission(%s) is %s', async (login, role) => {
    expect(await gh.api.getPermission(repo, login)).toBe(role);
  });

  it('isTeamMember: active members of a seeded team only', async () => {
    gh.state.addTeam('octo', 'reviewers', ['carol']);
    expect(await gh.api.isTeamMember('octo', 'reviewers', 'Carol')).toBe(true);
    expect(await gh.api.isTeamMember('octo', 'reviewers', 'alice')).toBe(false);
    expect(await gh.api.isTeamMember('octo', 'nobody', 'carol')).toBe(false);
  });
});

describe('createMemoryGitHub: files and branches from the bare repository', () => {
  it('getFileText serves files at a branch or sha; absent files, folders and refs are undefined', async () => {
    const sha = (await git(bare, 'rev-parse', 'main')).trim();
    expect(await gh.api.getFileText(repo, 'README.md', 'main')).toBe(TYPO_README);
    expect(await gh.api.getFileText(repo, '.github/agent-mux.yml', sha)).toBe('defaultAgent: demo\n');
    expect(await gh.api.getFileText(repo, 'missing.md', 'main')).toBeUndefined();
    expect(await gh.api.getFileText(repo, 'docs', 'main')).toBeUndefined();
    expect(await gh.api.getFileText(repo, 'README.md', 'no-such-branch')).toBeUndefined();
  });

  it('a file override replaces the default branch’s file only', async () => {
    const over = createMemoryGitHub({ repo, defaultBranch: 'main', bareRepo: bare, files: { 'README.md': 'over\n' } });
    expect(await over.api.getFileText(repo, 'README.md', 'main')).toBe('over\n');
    expect(await over.api.getFileText(repo, 'README.md', 'feature')).toBe(TYPO_README);
  });

  it('getBranchSha reads the branch from git; an unknown branch is undefined', async () => {
    expect(await gh.api.getBranchSha(repo, 'main')).toBe((await git(bare, 'rev-parse', 'main')).trim());
    expect(await gh.api.getBranchSha(repo, 'nope')).toBeUndefined();
  });
});

describe('createMemoryGitHub: comments and reactions', () => {
  it('createComment posts as agent-mux[bot] with increasing ids; unknown issues are 404', async () => {
    gh.state.addIssue({ number: 3, title: 'x', user: 'alice' });
    const seeded = gh.state.addComment(3, { id: 5000, body: 'hi', user: 'alice' });
    const first = await gh.api.createComment(repo, 3, 'one');
    const second = await gh.api.createComment(repo, 3, 'two');
    expect(first.id).toBeGreaterThan(seeded.id);
    expect(second.id).toBeGreaterThan(first.id);
    expect(first).toMatchObject({
      body: 'one',
      user: { login: 'agent-mux[bot]', type: 'Bot' },
      htmlUrl: `https://github.com/octo/demo/issues/3#issuecomment-${first.id}`,
    });
    expect(first.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await statusOf(gh.api.createComment(repo, 99, 'x'))).toBe(404);
  });

  it('updateComment and getComment: the body changes; unknown ids are 404', async () => {
    gh.state.addIssue({ number: 3, title: 'x', user: 'alice' });
    const { id } = await gh.api.createComment(repo, 3, 'one');
    await gh.api.updateComment(repo, id, 'edited');
    expect((await gh.api.getComment(repo, id)).body).toBe('edited');
    expect(await statusOf(gh.api.updateComment(repo, 999_999, 'x'))).toBe(404);
    expect(await statusOf(gh.api.getComment(repo, 999_999))).toBe(404);
  });

  it('listComments: since filters by update time; the same etag is notModified until something changes', async () => {
    let now = new Date('2026-01-01T10:00:00Z');
    gh.state.now = () => now;
    gh.state.addIssue({ number: 3, title: 'x', user: 'alice' });
    const old = await gh.api.createComment(repo, 3, 'old');
    now = new Date('2026-01-01T11:00:00Z');
    await gh.api.createComment(repo, 3, 'new');

    const all = await gh.api.listComments(repo, 3);
    expect(all.data.map((c) => c.body)).toEqual(['old', 'new']);
    const since = await gh.api.listComments(repo, 3, { since: '2026-01-01T10:30:00Z' });
    expect(since.data.map((c) => c.body)).toEqual(['new']);

    const again = await gh.api.listComments(repo, 3, { since: '2026-01-01T10:30:00Z', etag: since.etag });
    expect(again).toEqual({ notModified: true, etag: since.etag, data: [] });
    await gh.api.updateComment(repo, old.id, 'old, edited');
    const changed = await gh.api.listComments(repo, 3, { since: '2026-01-01T10:30:00Z', etag: since.etag });
    expect(changed.notModified).toBe(false);
    expect(changed.data.map((c) => c.body)).toEqual(['old, edited', 'new']);
    expect(await statusOf(gh.api.listComments(repo, 99))).toBe(404);
  });

  it('addReaction: on a comment, a review comment or an issue, once per content; unknown targets are 404', async () => {
    gh.state.addIssue({ number: 3, title: 'x', user: 'alice' });
    const comment = gh.state.addComment(3, { id: 700, body: '@agent go', user: 'alice' });
    gh.state.addReviewComment(3, { id: 800, body: '@agent go', user: 'alice' });
    await gh.api.addReaction(repo, { kind: 'issue_comment', commentId: comment.id }, 'eyes');
    await gh.api.addReaction(repo, { kind: 'issue_comment', commentId: comment.id }, 'eyes');
    await gh.api.addReaction(repo, { kind: 'review_comment', commentId: 800 }, 'rocket');
    await gh.api.addReaction(repo, { kind: 'issue', issueNumber: 3 }, '+1');
    expect(gh.state.reactions.map((r) => [r.target.kind, r.target.id, r.content])).toEqual([
      ['issue_comment', 700, 'eyes'],
      ['review_comment', 800, 'rocket'],
      ['issue', 3, '+1'],
    ]);
    expect(await statusOf(gh.api.addReaction(repo, { kind: 'issue_comment', commentId: 1 }, 'eyes'))).toBe(404);
    expect(await statusOf(gh.api.addReaction(repo, { kind: 'issue', issueNumber: 9 }, 'eyes'))).toBe(404);
  });
});

describe('createMemoryGitHub: check runs', () => {
  it('output accumulates like GitHub’s: fields replaced when given, annotations appended, conclusion completes', async () => {
    const run = await gh.api.createCheckRun(repo, {
      name: 'agent-mux / demo',
      headSha: 'a'.repeat(40),
      status: 'in_progress',
      output: { title: 'starting', summary: 'first' },
    });
    expect(run.htmlUrl).toBe(`https://github.com/octo/demo/runs/${run.id}`);
    const annotation = { path: 'README.md', startLine: 1, endLine: 1, level: 'notice' as const, message: 'm' };
    await gh.api.updateCheckRun(repo, run.id, {
      output: { title: 'running', summary: 'second', text: 'log', annotations: [annotation] },
    });
    await gh.api.updateCheckRun(repo, run.id, {
      conclusion: 'success',
      output: { title: 'done', summary: 'third', annotations: [{ ...annotation, path: 'b.md' }] },
    });
    const [stored] = gh.state.checkRuns();
    expect(stored).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      output: { title: 'done', summary: 'third', text: 'log' },
      updates: 2,
    });
    expect(stored?.annotations.map((a) => a.path)).toEqual(['README.md', 'b.md']);
    expect(stored?.completedAt).toBeDefined();
  });

  it.each([
    ['a summary over 65,535 characters', { output: { title: 't', summary: 'x'.repeat(65536) } }],
    [
      'more than 50 annotations',
      {
        output: {
          title: 't',
          summary: 's',
          annotations: Array.from({ length: 51 }, () => ({
            path: 'a',
            startLine: 1,
            endLine: 1,
            level: 'notice' as const,
            message: 'm',
          })),
        },
      },
    ],
    ['completed without a conclusion', { status: 'completed' as const }],
  ])('refuses %s with 422', async (_name, update) => {
    const run = await gh.api.createCheckRun(repo, { name: 'c', headSha: 'a'.repeat(40), status: 'in_progress' });
    expect(await statusOf(gh.api.updateCheckRun(repo, run.id, update))).toBe(422);
  });

  it('an unknown check run is 404', async () => {
    expect(await statusOf(gh.api.updateCheckRun(repo, 1, { status: 'in_progress' }))).toBe(404);
  });
});

describe('createMemoryGitHub: pull requests and reviews', () => {
  it('createPull needs the head branch in the bare repository; then getPull and findOpenPull find it', async () => {
    expect(await statusOf(gh.api.createPull(repo, { title: 't', head: 'nope', base: 'main', body: '' }))).toBe(422);
    expect(await statusOf(gh.api.createPull(repo, { title: 't', head: 'feature', base: 'nope', body: '' }))).toBe(422);
    gh.state.addIssue({ number: 4, title: 'an issue', user: 'alice' });
    const pull = await gh.api.createPull(repo, { title: 'Fix', head: 'feature', base: 'main', body: 'Closes #4.' });
    const sha = (await git(bare, 'rev-parse', 'feature')).trim();
    expect(pull).toEqual({
      number: 5,
      htmlUrl: 'https://github.com/octo/demo/pull/5',
      state: 'open',
      headSha: sha,
      headRef: 'feature',
      headRepoFullName: 'octo/demo',
      headCloneUrl: bare,
      baseRef: 'main',
      baseSha: sha,
      maintainerCanModify: false,
      fromFork: false,
    });
    expect(await gh.api.getPull(repo, 5)).toEqual(pull);
    expect(await gh.api.findOpenPull(repo, 'octo', 'feature')).toEqual(pull);
    expect(await gh.api.findOpenPull(repo, 'octo', 'main')).toBeUndefined();
    expect(await statusOf(gh.api.createPull(repo, { title: 't', head: 'feature', base: 'main', body: '' }))).toBe(422);
    expect(await statusOf(gh.api.getPull(repo, 4))).toBe(404);
  });

  it('requestReviewers: collaborators and seeded teams only, never the author', async () => {
    gh.state.addTeam('octo', 'core', ['carol']);
    gh.state.addPull({ number: 7, title: 'p', user: 'alice', headRef: 'feature', headSha: 'a'.repeat(40) });
    await gh.api.requestReviewers(repo, 7, { users: ['bob'], teams: ['core'] });
    expect(gh.state.issues.get(7)?.pull).toMatchObject({ requestedReviewers: ['bob'], requestedTeams: ['core'] });
    expect(await statusOf(gh.api.requestReviewers(repo, 7, { users: ['alice'], teams: [] }))).toBe(422);
    expect(await statusOf(gh.api.requestReviewers(repo, 7, { users: ['stranger'], teams: [] }))).toBe(422);
    expect(await statusOf(gh.api.requestReviewers(repo, 7, { users: [], teams: ['ghosts'] }))).toBe(422);
  });

  it('listReviews with etags: notModified until a review is added', async () => {
    gh.state.addPull({ number: 7, title: 'p', user: 'alice', headRef: 'feature', headSha: 'a'.repeat(40) });
    gh.state.addReview(7, { state: 'COMMENTED', body: 'hm', user: 'bob', commitId: 'a'.repeat(40) });
    const first = await gh.api.listReviews(repo, 7);
    expect(first.data).toEqual([expect.objectContaining({ state: 'COMMENTED', user: { login: 'bob', type: 'User' } })]);
    expect((await gh.api.listReviews(repo, 7, { etag: first.etag })).notModified).toBe(true);
    gh.state.addReview(7, { state: 'APPROVED', user: 'bob' });
    const second = await gh.api.listReviews(repo, 7, { etag: first.etag });
    expect(second.notModified).toBe(false);
    expect(second.data).toHaveLength(2);
    expect(await statusOf(gh.api.listReviews(repo, 8))).toBe(404);
  });
});

describe('createMemoryGitHub: workflow runs', () => {
  it('getWorkflowRun and cancelWorkflowRun: unknown runs are undefined / 404, completed ones 409', async () => {
    const run = gh.state.addWorkflowRun({ id: 42 });
    expect(await gh.api.getWorkflowRun(repo, 42)).toEqual({ id: 42, status: 'in_progress' });
    await gh.api.cancelWorkflowRun(repo, 42);
    expect(run).toMatchObject({ cancelRequested: true, status: 'completed', conclusion: 'cancelled' });
    expect(await statusOf(gh.api.cancelWorkflowRun(repo, 42))).toBe(409);
    expect(await gh.api.getWorkflowRun(repo, 43)).toBeUndefined();
    expect(await statusOf(gh.api.cancelWorkflowRun(repo, 43))).toBe(404);
  });
});
