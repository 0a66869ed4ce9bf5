import { Octokit } from '@octokit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from './fake-github.ts';
import { FakeGitHubViolationError } from './fake-github-violation-error.ts';

const ref = { owner: 'acme', repo: 'widgets' };

let gh: FakeGitHub;
let octokit: Octokit;

beforeEach(async () => {
  gh = await startFakeGitHub();
  octokit = new Octokit({ auth: 'tok', baseUrl: gh.url });
  gh.state.addRepo(ref);
  gh.state.addIssue(ref, { number: 1, title: 'Bug', user: 'alice' });
});

afterEach(async () => {
  await gh.close();
});

describe('requests the description does not allow are refused and recorded', () => {
  const table: { name: string; route: string; parameters: Record<string, unknown>; status: number; says: RegExp }[] = [
    {
      name: 'a check run with an unknown conclusion',
      route: 'POST /repos/{owner}/{repo}/check-runs',
      parameters: { name: 'x', head_sha: 'a'.repeat(40), conclusion: 'great' },
      status: 422,
      says: /checks\/create.*body\/conclusion must be equal to one of the allowed values/,
    },
    {
      name: 'a comment without body',
      route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      parameters: { issue_number: 1, title: 'no body' },
      status: 422,
      says: /issues\/create-comment.*must have required property 'body'/,
    },
    {
      name: 'an unknown route',
      route: 'GET /repos/{owner}/{repo}/not-a-thing',
      parameters: {},
      status: 404,
      says: /GET \/repos\/acme\/widgets\/not-a-thing: no operation of the REST description matches this path/,
    },
    {
      name: 'a method the path does not have',
      route: 'DELETE /repos/{owner}/{repo}/check-runs',
      parameters: {},
      status: 404,
      says: /no operation of the REST description matches this method/,
    },
    {
      name: 'a non-integer per_page',
      route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      parameters: { issue_number: 1, per_page: 'many' },
      status: 422,
      says: /query parameter per_page must be integer/,
    },
    {
      name: 'an unknown query parameter',
      route: 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      parameters: { issue_number: 1, sincee: '2020-01-01T00:00:00Z' },
      status: 422,
      says: /query parameter sincee is not a parameter of issues\/list-comments/,
    },
    {
      name: 'a non-numeric issue number',
      route: 'GET /repos/{owner}/{repo}/issues/{issue_number}',
      parameters: { issue_number: 'one' },
      status: 404,
      says: /path parameter issue_number must be integer/,
    },
    {
      name: 'an unknown reaction',
      route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions',
      parameters: { issue_number: 1, content: 'party' },
      status: 422,
      says: /body\/content must be equal to one of the allowed values/,
    },
  ];

  it.each(table)('$name', async ({ route, parameters, status, says }) => {
    const failure = await octokit.request(route, { ...ref, ...parameters }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status });
    const body = (failure as { response?: { data?: unknown } }).response?.data;
    expect(body).toMatchObject({ message: expect.any(String), documentation_url: expect.any(String) });
    expect(gh.violations).toHaveLength(1);
    expect(gh.violations[0]).toMatch(says);
    expect(() => gh.assertNoViolations()).toThrow(FakeGitHubViolationError);
  });

  it('assertNoViolations lists every violation in its message', async () => {
    await octokit.request('GET /nope').catch(() => undefined);
    await octokit.request('GET /nope/again').catch(() => undefined);
    const error = (() => {
      try {
        gh.assertNoViolations();
      } catch (caught) {
        return caught;
      }
    })();
    expect(FakeGitHubViolationError.isInstance(error)).toBe(true);
    expect((error as FakeGitHubViolationError).violations).toHaveLength(2);
    expect((error as Error).message).toContain('GET /nope/again');
  });
});

describe('check run limits', () => {
  const base = { ...ref, name: 'agent-mux', head_sha: 'a'.repeat(40) };
  const annotation = { path: 'a.ts', start_line: 1, end_line: 1, annotation_level: 'notice', message: 'm' };
  const action = { label: 'Stop', description: 'Stop the run', identifier: 'stop' };
  const table: { name: string; parameters: Record<string, unknown> }[] = [
    { name: 'summary over 65535 characters', parameters: { output: { title: 't', summary: 'x'.repeat(65536) } } },
    {
      name: 'text over 65535 characters',
      parameters: { output: { title: 't', summary: 's', text: 'x'.repeat(65536) } },
    },
    {
      name: 'more than 50 annotations',
      parameters: { output: { title: 't', summary: 's', annotations: Array(51).fill(annotation) } },
    },
    { name: 'more than 3 actions', parameters: { actions: [action, action, action, action] } },
    { name: 'completed without conclusion', parameters: { status: 'completed' } },
  ];

  it.each(table)('refuses $name with 422', async ({ parameters }) => {
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/check-runs', { ...base, ...parameters }),
    ).rejects.toMatchObject({ status: 422 });
    expect(gh.state.checkRuns(ref)).toEqual([]);
  });

  it('accepts exactly 65535 characters and 50 annotations, and a conclusion completes the run', async () => {
    const response = await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
      ...base,
      conclusion: 'failure',
      output: { title: 't', summary: 'x'.repeat(65535), annotations: Array(50).fill(annotation) },
    } as never);
    expect(response.data).toMatchObject({ status: 'completed', conclusion: 'failure' });
    gh.assertNoViolations();
  });

  it('refuses completing an update without a conclusion, accepts it after one', async () => {
    const { data } = await octokit.request('POST /repos/{owner}/{repo}/check-runs', { ...base, status: 'in_progress' });
    const id = Number(data.id);
    const patch = (parameters: Record<string, unknown>) =>
      octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
        ...ref,
        check_run_id: id,
        ...parameters,
      });
    await expect(patch({ status: 'completed' })).rejects.toMatchObject({ status: 422 });
    await patch({ status: 'completed', conclusion: 'cancelled' });
    expect(gh.state.checkRun(id)).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
  });
});

describe('ETags', () => {
  it('answers 304 without a body to a matching if-none-match, and it does not count against the rate limit', async () => {
    gh.state.addComment(ref, 1, { body: 'hello', user: 'alice' });
    const route = 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments';
    const first = await octokit.request(route, { ...ref, issue_number: 1, per_page: 100 });
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    const counted = gh.state.rateLimitedRequests;

    const again = await octokit
      .request(route, { ...ref, issue_number: 1, per_page: 100, headers: { 'if-none-match': etag } })
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 304 });
    expect(gh.requests.at(-1)?.status).toBe(304);
    expect(gh.state.rateLimitedRequests).toBe(counted);

    gh.state.addComment(ref, 1, { body: 'new', user: 'alice' });
    const changed = await octokit.request(route, {
      ...ref,
      issue_number: 1,
      per_page: 100,
      headers: { 'if-none-match': etag },
    });
    expect(changed.data.map((c) => c.body)).toEqual(['hello', 'new']);
    expect(changed.headers.etag).not.toBe(etag);
    expect(gh.state.rateLimitedRequests).toBe(counted + 1);
    gh.assertNoViolations();
  });

  it('reviews carry ETags too', async () => {
    gh.state.addPull(ref, { number: 2, title: 'Fix', headRef: 'fix', user: 'alice' });
    const route = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews';
    const first = await octokit.request(route, { ...ref, pull_number: 2 });
    await expect(
      octokit.request(route, { ...ref, pull_number: 2, headers: { 'if-none-match': first.headers.etag } }),
    ).rejects.toMatchObject({ status: 304 });
  });
});

describe('fault injection', () => {
  it('answers the next matching requests with the injected response, then recovers', async () => {
    gh.failNext(
      { method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments' },
      { status: 403, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit' } },
      2,
    );
    const post = () =>
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...ref,
        issue_number: 1,
        body: 'x',
      });
    for (let i = 0; i < 2; i++) {
      const failure = await post().catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 403, response: { headers: { 'retry-after': '1' } } });
    }
    await expect(post()).resolves.toMatchObject({ status: 201 });
    expect(gh.state.comments(ref, 1)).toHaveLength(1);
    gh.assertNoViolations();
  });

  it('matches a RegExp on the concrete path and any method with *', async () => {
    gh.failNext({ method: '*', path: /\/issues\/1$/ }, { status: 500 });
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...ref, issue_number: 1 }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...ref, issue_number: 1 }),
    ).resolves.toMatchObject({ status: 200 });
  });

  it('still refuses an invalid request before injecting', async () => {
    gh.failNext({ method: 'POST', path: /comments/ }, { status: 500 });
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...ref,
        issue_number: 1,
      } as never),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe('auth and recording', () => {
  it('refuses unknown tokens when tokens are given, and acts as the token identity', async () => {
    const strict = await startFakeGitHub({ tokens: { 'user-tok': { login: 'alice', type: 'User' } } });
    try {
      strict.state.addRepo(ref);
      strict.state.addIssue(ref, { number: 1, title: 'Bug', user: 'alice' });
      const good = new Octokit({ auth: 'user-tok', baseUrl: strict.url });
      const bad = new Octokit({ auth: 'other', baseUrl: strict.url });
      const created = await good.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...ref,
        issue_number: 1,
        body: 'mine',
      });
      expect(created.data.user).toMatchObject({ login: 'alice', type: 'User' });
      const failure = await bad.request('GET /repos/{owner}/{repo}', ref).catch((error: unknown) => error);
      expect(failure).toMatchObject({ status: 401, response: { data: { message: 'Bad credentials' } } });
      const anonymous = new Octokit({ baseUrl: strict.url });
      await expect(anonymous.request('GET /repos/{owner}/{repo}', ref)).rejects.toMatchObject({ status: 401 });
      strict.assertNoViolations();
    } finally {
      await strict.close();
    }
  });

  it('records every request with raw headers, parsed body and status, and accepts the /api/v3 prefix', async () => {
    const ghe = new Octokit({ auth: 'tok', baseUrl: `${gh.url}/api/v3` });
    await ghe.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...ref,
      issue_number: 1,
      body: 'via GHE',
    });
    expect(gh.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/v3/repos/acme/widgets/issues/1/comments',
      body: { body: 'via GHE' },
      status: 201,
      operationId: 'issues/create-comment',
      headers: { authorization: 'token tok' },
    });
    gh.assertNoViolations();
  });

  it('sends rate limit headers', async () => {
    const response = await octokit.request('GET /repos/{owner}/{repo}', ref);
    expect(response.headers['x-ratelimit-remaining']).toBe(String(5000 - gh.state.rateLimitedRequests));
  });
});

describe('pull requests from forks', () => {
  it('reports the fork head repository, or null when the fork is deleted', async () => {
    gh.state.addPull(ref, {
      number: 5,
      title: 'Fork',
      headRef: 'patch',
      fromFork: 'eve',
      user: 'eve',
      maintainerCanModify: true,
    });
    gh.state.addPull(ref, { number: 6, title: 'Gone', headRef: 'patch', fromFork: 'deleted', user: 'eve' });
    const fork = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: 5 });
    expect(fork.data.head.repo).toMatchObject({ full_name: 'eve/widgets', fork: true });
    expect(fork.data.maintainer_can_modify).toBe(true);
    const gone = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: 6 });
    expect(gone.data.head.repo).toBeNull();
    const listed = await octokit.request('GET /repos/{owner}/{repo}/pulls', { ...ref, head: 'eve:patch' });
    expect(listed.data.map((p) => p.number)).toEqual([5]);
    gh.assertNoViolations();
  });
});

describe('GraphQL documents are checked against GitHub’s published schema', () => {
  it('a field GitHub does not have is answered with errors and recorded', async () => {
    const reply = await octokit.request('POST /graphql', {
      query: 'query { repository(owner: "acme", name: "widgets") { pullRequest(number: 1) { threads { id } } } }',
    });
    expect(reply.data).toMatchObject({
      errors: [{ message: expect.stringContaining('Cannot query field "threads"') }],
    });
    expect(gh.violations).toHaveLength(1);
    expect(gh.violations[0]).toMatch(/not valid against GitHub's GraphQL schema/);
  });

  it('a valid query the fake does not answer is recorded too', async () => {
    await octokit.request('POST /graphql', { query: 'query { viewer { login } }' });
    expect(gh.violations[0]).toMatch(/does not answer this query/);
  });
});
