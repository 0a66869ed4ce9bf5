import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubApi, graphqlBase } from '../../src/github/create-github-api.ts';
import { createOctokit } from '../../src/github/create-octokit.ts';
import type { GitHubApi } from '../../src/github/github-api.ts';
import { GitHubApiError } from '../../src/github/github-api-error.ts';
import { type FakeGitHub, startFakeGitHub } from '../support/fake-github/fake-github.ts';

const repo = { owner: 'octo', repo: 'demo' };
let gh: FakeGitHub;
let api: GitHubApi;
let waits: string[];

beforeEach(async () => {
  gh = await startFakeGitHub();
  gh.state.addRepo({ ...repo, defaultBranch: 'main' });
  gh.state.setBranch(repo, 'main', 'a'.repeat(40));
  gh.state.setPermission(repo, 'alice', 'write');
  gh.state.setPermission(repo, 'tria', 'triage');
  gh.state.addTeam('octo', 'reviewers', ['bob']);
  waits = [];
  api = createGitHubApi(
    createOctokit({ token: 'ghs_test', baseUrl: gh.url, waitScale: 1, log: (line) => waits.push(line) }),
  );
});
afterEach(async () => {
  gh.assertNoViolations();
  await gh.close();
});

describe('createGitHubApi over a real Octokit, against the fake GitHub', () => {
  it('reads the repository, roles, team membership, files and branches', async () => {
    expect(await api.getRepo(repo)).toMatchObject({ fullName: 'octo/demo', defaultBranch: 'main', private: false });
    expect(await api.getPermission(repo, 'alice')).toBe('write');
    expect(await api.getPermission(repo, 'tria')).toBe('triage');
    gh.state.addUser('stranger');
    expect(await api.getPermission(repo, 'stranger')).toBe('none');
    expect(await api.isTeamMember('octo', 'reviewers', 'bob')).toBe(true);
    expect(await api.isTeamMember('octo', 'reviewers', 'alice')).toBe(false);
    gh.state.setFile(repo, 'main', '.github/agent-mux.yml', 'trigger:\n  phrase: "@bot"\n');
    expect(await api.getFileText(repo, '.github/agent-mux.yml', 'main')).toBe('trigger:\n  phrase: "@bot"\n');
    expect(await api.getFileText(repo, 'missing.yml', 'main')).toBeUndefined();
    expect(await api.getBranchSha(repo, 'main')).toBe('a'.repeat(40));
    expect(await api.getBranchSha(repo, 'nope')).toBeUndefined();
  });

  it('writes comments, reactions and check runs in GitHub’s shapes', async () => {
    gh.state.addIssue(repo, { number: 4, title: 'x', user: 'alice' });
    const comment = await api.createComment(repo, 4, 'hello');
    expect(comment).toMatchObject({ body: 'hello', user: { login: 'agent-mux[bot]' } });
    await api.updateComment(repo, comment.id, 'edited');
    expect((await api.getComment(repo, comment.id)).body).toBe('edited');
    await api.addReaction(repo, { kind: 'issue_comment', commentId: comment.id }, 'eyes');
    await api.addReaction(repo, { kind: 'issue', issueNumber: 4 }, 'rocket');
    expect(gh.state.reactions.map((r) => r.content)).toEqual(['eyes', 'rocket']);

    const run = await api.createCheckRun(repo, {
      name: 'agent-mux / demo',
      headSha: 'a'.repeat(40),
      status: 'in_progress',
      output: { title: 't', summary: 's' },
    });
    await api.updateCheckRun(repo, run.id, {
      status: 'completed',
      conclusion: 'success',
      completedAt: new Date().toISOString(),
      output: {
        title: 'done',
        summary: 'ok',
        text: 'log',
        annotations: [{ path: 'README.md', startLine: 1, endLine: 1, level: 'notice', message: 'changed' }],
      },
    });
    expect(gh.state.checkRun(run.id)).toMatchObject({ status: 'completed', conclusion: 'success' });
  });

  it('lists comments and reviews with ETags: an unchanged list is a 304 that costs no rate limit', async () => {
    gh.state.addIssue(repo, { number: 5, title: 'x', user: 'alice' });
    gh.state.addComment(repo, 5, { body: 'one', user: 'alice' });
    const first = await api.listComments(repo, 5);
    expect(first.notModified).toBe(false);
    expect(first.data.map((c) => c.body)).toEqual(['one']);
    const counted = gh.state.rateLimitedRequests;
    const second = await api.listComments(repo, 5, { etag: first.etag });
    expect(second).toMatchObject({ notModified: true, data: [] });
    expect(gh.state.rateLimitedRequests).toBe(counted);
    gh.state.addComment(repo, 5, { body: 'two', user: 'alice' });
    const third = await api.listComments(repo, 5, { etag: first.etag });
    expect(third.data.map((c) => c.body)).toEqual(['one', 'two']);
  });

  it('opens pull requests, finds them by head, requests reviewers and lists reviews', async () => {
    gh.state.setBranch(repo, 'agent-mux/1-x', 'b'.repeat(40));
    const pr = await api.createPull(repo, { title: 'T', head: 'agent-mux/1-x', base: 'main', body: 'Closes #1' });
    expect(pr).toMatchObject({ headRef: 'agent-mux/1-x', baseRef: 'main', fromFork: false, state: 'open' });
    expect((await api.findOpenPull(repo, 'octo', 'agent-mux/1-x'))?.number).toBe(pr.number);
    expect(await api.findOpenPull(repo, 'octo', 'other')).toBeUndefined();
    await api.requestReviewers(repo, pr.number, { users: ['alice'], teams: ['reviewers'] });
    expect(gh.state.reviewRequests(repo, pr.number)).toEqual({ users: ['alice'], teams: ['reviewers'] });
    gh.state.addReview(repo, pr.number, { state: 'APPROVED', body: '', user: 'alice', commitId: 'b'.repeat(40) });
    const reviews = await api.listReviews(repo, pr.number);
    expect(reviews.data).toEqual([expect.objectContaining({ state: 'APPROVED', commitId: 'b'.repeat(40) })]);
    expect((await api.getPull(repo, pr.number)).headSha).toBe('b'.repeat(40));
  });

  it('retries secondary rate limits and 429s after GitHub’s retry-after (plugin-throttling)', async () => {
    gh.state.addIssue(repo, { number: 6, title: 'x', user: 'alice' });
    gh.failNext(
      { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments' },
      {
        status: 403,
        headers: { 'retry-after': '1' },
        body: { message: 'You have exceeded a secondary rate limit and have been temporarily blocked.' },
      },
    );
    gh.failNext(
      { method: 'GET', path: '/repos/{owner}/{repo}' },
      {
        status: 429,
        headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' },
        body: { message: 'API rate limit exceeded' },
      },
    );
    await api.createComment(repo, 6, 'after a wait');
    await api.getRepo(repo);
    expect(gh.state.comments(repo, 6).map((c) => c.body)).toEqual(['after a wait']);
    expect(waits.join('\n')).toMatch(/secondary rate limit/);
    expect(waits.join('\n')).toMatch(/rate limit/);
  });

  it('retries server errors (plugin-retry) and names the operation when it gives up', async () => {
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}' }, { status: 502, body: { message: 'bad gateway' } });
    expect((await api.getRepo(repo)).fullName).toBe('octo/demo');
    const error = await api.getPull(repo, 999).catch((e: unknown) => e);
    expect(GitHubApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, operation: 'GET /repos/{owner}/{repo}/pulls/{pull_number}' });
  });
});

describe('graphqlBase', () => {
  it('points GraphQL at /api/graphql on GitHub Enterprise Server, where REST is under /api/v3', () => {
    const ghes = createOctokit({ token: 'ghs_test', baseUrl: 'https://ghe.example.com/api/v3', waitScale: 1 });
    expect(graphqlBase(ghes)).toEqual({ baseUrl: 'https://ghe.example.com/api' });
    const trailing = createOctokit({ token: 'ghs_test', baseUrl: 'https://ghe.example.com/api/v3/', waitScale: 1 });
    expect(graphqlBase(trailing)).toEqual({ baseUrl: 'https://ghe.example.com/api' });
  });

  it('leaves github.com and other hosts on the Octokit’s own base URL', () => {
    expect(graphqlBase(createOctokit({ token: 'ghs_test', waitScale: 1 }))).toEqual({});
    expect(graphqlBase(createOctokit({ token: 'ghs_test', baseUrl: 'http://127.0.0.1:9', waitScale: 1 }))).toEqual({});
  });
});
