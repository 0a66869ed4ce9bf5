import { Octokit } from '@octokit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from './fake-github.ts';

const ref = { owner: 'acme', repo: 'widgets' };
const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOjF9.c2lnbmF0dXJl';

let gh: FakeGitHub;
let octokit: Octokit;

beforeEach(async () => {
  gh = await startFakeGitHub();
  octokit = new Octokit({ auth: 'tok', baseUrl: gh.url });
  gh.state.addRepo(ref);
  gh.state.setPermission(ref, 'alice', 'write');
  gh.state.addUser('mallory');
  gh.state.addTeam('acme', 'reviewers', ['bob']);
  gh.state.setFile(ref, 'main', '.github/agent-mux.yml', 'agent: claude\n');
  gh.state.addIssue(ref, { number: 1, title: 'Bug', body: 'It breaks', user: 'alice' });
  gh.state.addPull(ref, { number: 2, title: 'Fix', headRef: 'fix', user: 'alice' });
  gh.state.addComment(ref, 1, { body: '@agent fix this', user: 'alice' });
});

afterEach(async () => {
  await gh.close();
});

describe('every endpoint answers bodies valid under the description', () => {
  it('repository, permission, team, contents and refs', async () => {
    const repo = await octokit.request('GET /repos/{owner}/{repo}', ref);
    expect(repo.data).toMatchObject({ full_name: 'acme/widgets', default_branch: 'main', private: false });

    const table: [string, string, number][] = [
      ['alice', 'write', 200],
      ['mallory', 'none', 200],
      ['acme', 'admin', 200],
    ];
    for (const [username, role, status] of table) {
      const response = await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', {
        ...ref,
        username,
      });
      expect([response.status, response.data.role_name]).toEqual([status, role]);
    }
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...ref, username: 'ghost' }),
    ).rejects.toMatchObject({ status: 404 });

    const member = await octokit.request('GET /orgs/{org}/teams/{team_slug}/memberships/{username}', {
      org: 'acme',
      team_slug: 'reviewers',
      username: 'bob',
    });
    expect(member.data).toMatchObject({ state: 'active', role: 'member' });
    await expect(
      octokit.request('GET /orgs/{org}/teams/{team_slug}/memberships/{username}', {
        org: 'acme',
        team_slug: 'reviewers',
        username: 'alice',
      }),
    ).rejects.toMatchObject({ status: 404 });

    const file = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...ref,
      path: '.github/agent-mux.yml',
      ref: 'main',
    });
    const data = file.data as { content: string; encoding: string };
    expect(Buffer.from(data.content, 'base64').toString('utf8')).toBe('agent: claude\n');
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...ref, path: 'missing.txt' }),
    ).rejects.toMatchObject({ status: 404 });

    const main = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...ref, ref: 'heads/main' });
    expect(main.data.object.sha).toBe(gh.state.repo(ref)?.branches.get('main'));
    await expect(
      octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...ref, ref: 'heads/nope' }),
    ).rejects.toMatchObject({ status: 404 });
    gh.assertNoViolations();
  });

  it('issue comments: create, get, update, list with since and pages', async () => {
    const created = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...ref,
      issue_number: 1,
      body: 'Working on it',
    });
    expect(created.status).toBe(201);
    expect(created.data.user).toMatchObject({ login: 'agent-mux[bot]', type: 'Bot' });
    const id = created.data.id;
    await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      ...ref,
      comment_id: id,
      body: 'Done',
    });
    const got = await octokit.request('GET /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      ...ref,
      comment_id: id,
    });
    expect(got.data.body).toBe('Done');
    expect(gh.state.comments(ref, 1).map((c) => c.body)).toEqual(['@agent fix this', 'Done']);

    for (let i = 0; i < 3; i++) gh.state.addComment(ref, 1, { body: `c${i}`, user: 'alice' });
    const page2 = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...ref,
      issue_number: 1,
      per_page: 2,
      page: 2,
    });
    expect(page2.data.map((c) => c.body)).toEqual(['c0', 'c1']);
    expect(page2.headers.link).toContain('rel="next"');

    gh.state.now = () => new Date('2030-01-01T00:00:00Z');
    gh.state.addComment(ref, 1, { body: 'later', user: 'alice' });
    const since = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...ref,
      issue_number: 1,
      since: '2029-12-31T00:00:00Z',
    });
    expect(since.data.map((c) => c.body)).toEqual(['later']);
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...ref,
        issue_number: 99,
        body: 'x',
      }),
    ).rejects.toMatchObject({ status: 404 });
    gh.assertNoViolations();
  });

  it('reactions on issue comments, review comments and issues', async () => {
    const comment = gh.state.comments(ref, 1)[0]!;
    const reviewComment = gh.state.addReviewComment(ref, 2, { body: '@agent explain', user: 'alice' });
    const first = await octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...ref,
      comment_id: comment.id,
      content: 'eyes',
    });
    const again = await octokit.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', {
      ...ref,
      comment_id: comment.id,
      content: 'eyes',
    });
    expect([first.status, again.status]).toEqual([201, 200]);
    await octokit.request('POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions', {
      ...ref,
      comment_id: reviewComment.id,
      content: 'rocket',
    });
    await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', {
      ...ref,
      issue_number: 1,
      content: '+1',
    });
    expect(gh.state.reactions.map((r) => [r.target.kind, r.content])).toEqual([
      ['issue_comment', 'eyes'],
      ['review_comment', 'rocket'],
      ['issue', '+1'],
    ]);
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions', {
        ...ref,
        comment_id: 424242,
        content: 'eyes',
      }),
    ).rejects.toMatchObject({ status: 404 });
    gh.assertNoViolations();
  });

  it('check runs: create, update with accumulating annotations, complete, get', async () => {
    const created = await octokit.request('POST /repos/{owner}/{repo}/check-runs', {
      ...ref,
      name: 'agent-mux',
      head_sha: 'a'.repeat(40),
      status: 'in_progress',
      output: { title: 'Running', summary: 'Started', annotations: [annotation(1)] },
      actions: [{ label: 'Stop', description: 'Stop the run', identifier: 'stop' }],
    });
    expect(created.data).toMatchObject({ status: 'in_progress', conclusion: null, name: 'agent-mux' });
    const id = created.data.id;
    await octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      ...ref,
      check_run_id: id,
      output: { title: 'Running', summary: 'More', annotations: [annotation(2), annotation(3)] },
    });
    const done = await octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      ...ref,
      check_run_id: id,
      conclusion: 'success',
    });
    expect(done.data).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(done.data.completed_at).toBeTruthy();
    const got = await octokit.request('GET /repos/{owner}/{repo}/check-runs/{check_run_id}', {
      ...ref,
      check_run_id: id,
    });
    expect(got.data.output).toMatchObject({ summary: 'More', annotations_count: 3 });
    const [stored] = gh.state.checkRuns(ref);
    expect(stored?.output.annotations.map((a) => a.start_line)).toEqual([1, 2, 3]);
    expect(stored).toMatchObject({ updates: 2, creator: { login: 'agent-mux[bot]' } });
    gh.assertNoViolations();
  });

  it('pulls: get, list by head, create, duplicate, request reviewers, reviews', async () => {
    const pull = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: 2 });
    expect(pull.data).toMatchObject({ number: 2, head: { ref: 'fix' }, base: { ref: 'main' }, state: 'open' });
    const listed = await octokit.request('GET /repos/{owner}/{repo}/pulls', {
      ...ref,
      head: 'acme:fix',
      state: 'open',
    });
    expect(listed.data.map((p) => p.number)).toEqual([2]);
    const none = await octokit.request('GET /repos/{owner}/{repo}/pulls', { ...ref, head: 'acme:other' });
    expect(none.data).toEqual([]);

    const created = await octokit.request('POST /repos/{owner}/{repo}/pulls', {
      ...ref,
      title: 'Agent fix',
      head: 'agent/fix-1',
      base: 'main',
      body: 'Closes #1',
    });
    expect(created.data).toMatchObject({ number: 3, user: { login: 'agent-mux[bot]' } });
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls', {
        ...ref,
        title: 'Again',
        head: 'agent/fix-1',
        base: 'main',
      }),
    ).rejects.toMatchObject({ status: 422 });

    await octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
      ...ref,
      pull_number: 3,
      reviewers: ['alice'],
      team_reviewers: ['reviewers'],
    });
    expect(gh.state.reviewRequests(ref, 3)).toEqual({ users: ['alice'], teams: ['reviewers'] });
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
        ...ref,
        pull_number: 3,
        reviewers: ['mallory'],
      }),
    ).rejects.toMatchObject({ status: 422 });

    gh.state.addReview(ref, 2, { state: 'APPROVED', body: 'lgtm', user: 'alice' });
    const reviews = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
      ...ref,
      pull_number: 2,
      per_page: 100,
    });
    expect(reviews.data.map((r) => [r.state, r.user?.login, r.commit_id])).toEqual([
      ['APPROVED', 'alice', gh.state.pull(ref, 2)?.headSha],
    ]);
    const issue = await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { ...ref, issue_number: 2 });
    expect(issue.data.pull_request).toBeDefined();
    gh.assertNoViolations();
  });

  it('pushHead moves the pull request head', async () => {
    gh.state.pushHead(ref, 2, 'b'.repeat(40));
    const pull = await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: 2 });
    expect(pull.data.head.sha).toBe('b'.repeat(40));
    gh.assertNoViolations();
  });

  it('workflow runs: list filtered by status and event, cancel', async () => {
    const running = gh.state.addWorkflowRun(ref, { status: 'in_progress', event: 'issue_comment' });
    gh.state.addWorkflowRun(ref, { status: 'completed', conclusion: 'success', event: 'push' });
    const listed = await octokit.request('GET /repos/{owner}/{repo}/actions/runs', {
      ...ref,
      status: 'in_progress',
      event: 'issue_comment',
    });
    expect(listed.data.workflow_runs.map((r) => r.id)).toEqual([running.id]);
    const one = await octokit.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', {
      ...ref,
      run_id: running.id,
    });
    expect(one.data).toMatchObject({ id: running.id, status: 'in_progress', event: 'issue_comment' });
    const byConclusion = await octokit.request('GET /repos/{owner}/{repo}/actions/runs', { ...ref, status: 'success' });
    expect(byConclusion.data.total_count).toBe(1);
    const cancelled = await octokit.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', {
      ...ref,
      run_id: running.id,
    });
    expect(cancelled.status).toBe(202);
    expect(gh.state.workflowRun(running.id)).toMatchObject({ cancelRequested: true, conclusion: 'cancelled' });
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { ...ref, run_id: running.id }),
    ).rejects.toMatchObject({ status: 409 });
    gh.assertNoViolations();
  });

  it('Actions caches: what a linked cache service holds (finalized only), by key prefix, ref, sort and page', async () => {
    const entries = [
      {
        id: 1,
        key: 'spend/a/1',
        version: 'v',
        createdAt: Date.parse('2026-03-14T10:00:00Z'),
        finalized: true,
        sizeBytes: 9,
      },
      { id: 2, key: 'spend/a/2', version: 'v', createdAt: Date.parse('2026-03-14T11:00:00Z'), finalized: false },
      { id: 3, key: 'spend/b/1', version: 'v', createdAt: Date.parse('2026-03-14T12:00:00Z'), finalized: true },
      { id: 4, key: 'other/1', version: 'v', createdAt: Date.parse('2026-03-14T13:00:00Z'), finalized: true },
    ];
    gh.state.linkActionsCache(ref, { entries });
    const list = (query: Record<string, string | number>) =>
      octokit.request('GET /repos/{owner}/{repo}/actions/caches', { ...ref, ...query });
    const newest = await list({ key: 'spend/' });
    expect(newest.data.total_count).toBe(2);
    expect(newest.data.actions_caches.map((c) => c.key)).toEqual(['spend/b/1', 'spend/a/1']);
    expect(newest.data.actions_caches[1]).toMatchObject({
      id: 1,
      ref: 'refs/heads/main',
      created_at: '2026-03-14T10:00:00.000Z',
      size_in_bytes: 9,
    });
    const oldest = await list({ key: 'spend/', sort: 'created_at', direction: 'asc', per_page: 1, page: 2 });
    expect(oldest.data.actions_caches.map((c) => c.key)).toEqual(['spend/b/1']);
    expect(oldest.headers.link).toContain('rel="prev"');
    expect((await list({ ref: 'refs/heads/other' })).data.total_count).toBe(0);
    entries[1] = { ...entries[1], finalized: true } as (typeof entries)[1];
    expect((await list({ key: 'spend/a/' })).data.total_count).toBe(2);
    gh.assertNoViolations();
  });

  it('app: GET /app and the installation with a JWT, then an installation token that works', async () => {
    const app = new Octokit({ auth: jwt, baseUrl: `${gh.url}/api/v3` });
    const self = await app.request('GET /app');
    expect(self.data).toMatchObject({ slug: 'agent-mux' });
    const installation = await app.request('GET /repos/{owner}/{repo}/installation', ref);
    const token = await app.request('POST /app/installations/{installation_id}/access_tokens', {
      installation_id: installation.data.id,
    });
    const installed = new Octokit({ auth: token.data.token, baseUrl: `${gh.url}/api/v3` });
    const comment = await installed.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      ...ref,
      issue_number: 1,
      body: 'hi',
    });
    expect(comment.data.user?.login).toBe('agent-mux[bot]');
    await expect(octokit.request('GET /app')).rejects.toMatchObject({ status: 401 });
    expect(gh.requests.at(-1)?.path).toBe('/app');
    gh.assertNoViolations();
  });
});

function annotation(line: number): {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice';
  message: string;
} {
  return { path: 'src/a.ts', start_line: line, end_line: line, annotation_level: 'notice', message: `note ${line}` };
}
