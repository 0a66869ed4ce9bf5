import { readdir, readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
import { commentEvent, WORLD_TOKEN } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  users: []
  permission: maintain
  timeout: 30s
`;

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The check run once it shows Approve / Deny buttons. */
function withButtons(a: AppWorld): Promise<FakeCheckRun> {
  return waitFor(
    () => a.w.gh.state.checkRuns(a.w.repo).find((c) => (c.actions ?? []).length > 0),
    'the Approve / Deny buttons',
  );
}

function pressButton(a: AppWorld, check: FakeCheckRun, login: string, identifier: string): Promise<string> {
  const payload = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login });
  const checkRun = payload.check_run as Record<string, unknown>;
  checkRun.id = check.id;
  checkRun.external_id = check.externalId;
  payload.requested_action = { identifier };
  return a.receive('check_run', payload);
}

/** agent-mux's replies to answers that did not count, on issue `number`. */
function replies(a: AppWorld, number: number) {
  return a.w.gh.state.comments(a.w.repo, number).filter((c) => c.body.includes('<!-- agent-mux:approval-reply -->'));
}

function approvalComment(a: AppWorld, number: number) {
  return a.w.gh.state.comments(a.w.repo, number).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
}

async function finished(a: AppWorld) {
  return waitFor(async () => {
    const [run] = await a.store.list();
    return run && ['succeeded', 'failed', 'cancelled', 'timed_out'].includes(run.state) ? run : undefined;
  }, 'the run to finish');
}

describe('the app end to end: webhooks → store → dispatcher → worker → GitHub (fake) with real git', () => {
  it('mention → run → an unauthorized button press ignored → Approve by a maintainer → pull request', async () => {
    const a = await createAppWorld({ config: CONFIG, startLoops: true });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Fix the README typo', body: 'projcet', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent demo: fix the typo').payload);

    const check = await withButtons(a);
    expect(check.status).toBe('in_progress');
    const approve = check.actions?.find((b) => b.identifier.startsWith('approve:'));
    expect(check.actions?.map((b) => b.label)).toEqual(['Approve', 'Deny']);
    for (const button of check.actions ?? []) {
      expect(button.identifier.length).toBeLessThanOrEqual(20);
      expect(button.label.length).toBeLessThanOrEqual(20);
      expect(button.description.length).toBeLessThanOrEqual(40);
    }
    const [running] = await a.store.list();
    expect(running?.state).toBe('awaiting_approval');
    const pending = await a.store.pendingApprovals({ runId: running?.id });
    expect(pending).toHaveLength(1);
    expect(approve?.identifier).toBe(`approve:${pending[0]?.approvalId.slice(0, 12)}`);

    // The workspace (the run's first attempt) is a fresh clone whose .git/config holds no token.
    const workspaces = await readdir(a.settings.workDir);
    expect(workspaces).toEqual([`${running?.id}.0`]);
    const gitConfig = await readFile(`${a.settings.workDir}/${running?.id}.0/.git/config`, 'utf8');
    expect(gitConfig).not.toMatch(/ghs_|extraheader|AUTHORIZATION/i);

    await pressButton(a, check, 'mallory', approve?.identifier ?? '');
    await waitFor(
      () => a.w.gh.state.checkRun(check.id)?.output?.text?.includes('ignored approve from @mallory') || undefined,
      'mallory ignored',
    );
    // The press that did not count is answered on GitHub: one reply, and the approval comment names her.
    await waitFor(() => replies(a, 12)[0], 'a reply to mallory');
    expect(replies(a, 12)[0]?.body).toContain('@mallory, your approve button for `');
    expect(replies(a, 12)[0]?.body).toContain('Approvers: users with maintain permission or above.');
    await waitFor(() => approvalComment(a, 12)?.body.includes('Not counted: @mallory') || undefined, 'the edit');
    await pressButton(a, check, 'mallory', approve?.identifier ?? '');
    await pressButton(a, check, 'bob', approve?.identifier ?? '');

    const run = await finished(a);
    expect(run).toMatchObject({ state: 'succeeded', conclusion: 'success' });
    const final = a.w.gh.state.checkRun(check.id);
    expect(final).toMatchObject({ status: 'completed', conclusion: 'success', actions: [] });
    const pulls = a.w.gh.state.pulls(a.w.repo);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]?.body).toContain('Closes #12');
    expect(await a.w.git(['show', `${pulls[0]?.headRef}:README.md`], a.w.bare)).toContain('This project shows');
    const approval = a.w.gh.state.comments(a.w.repo, 12).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('**Approved** by @bob');
    expect(replies(a, 12)).toHaveLength(1);
    expect(await a.store.pendingApprovals({ runId: run.id })).toEqual([]);
    await waitFor(
      async () => ((await readdir(a.settings.workDir)).length === 0 ? true : undefined),
      'the workspace removed',
    );
    for (const request of a.w.gh.requests) expect(JSON.stringify(request.body ?? '')).not.toContain(WORLD_TOKEN);
    a.w.gh.assertNoViolations();
  });

  it('a pull request: approved by an APPROVED review on its head commit', async () => {
    const a = await createAppWorld({ config: CONFIG, startLoops: true });
    world = a;
    const head = await a.w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
    a.w.gh.state.addPull(a.w.repo, {
      number: 21,
      title: 'Docs',
      headRef: 'docs',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    await a.receive(
      'issue_comment',
      commentEvent(a.w, 21, 'alice', '@agent fix the README typo', { pr: true }).payload,
    );
    await withButtons(a);

    const review = (login: string) => {
      const payload = webhookPayload('pull_request_review', 'submitted', {
        owner: 'octo',
        repo: 'demo',
        login,
        number: 21,
        body: '',
      });
      // The review as GitHub holds it: its own id and submission time.
      const stored = a.w.gh.state.addReview(a.w.repo, 21, { state: 'APPROVED', user: login, commitId: head });
      Object.assign(payload.review as object, {
        id: stored.id,
        state: 'approved',
        commit_id: head,
        submitted_at: stored.submittedAt,
      });
      return a.receive('pull_request_review', payload);
    };
    // A review counts from the second after the ask (GitHub's times are whole seconds).
    await new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));
    await review('mallory');
    await review('bob');

    const run = await finished(a);
    expect(run).toMatchObject({ state: 'succeeded', conclusion: 'success' });
    expect(await a.w.git(['show', 'docs:README.md'], a.w.bare)).toContain('This project shows');
    const [check] = a.w.gh.state.checkRuns(a.w.repo);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'success', headSha: head });
    expect(check?.output?.text).toContain('ignored approve from @mallory');
    const [reply] = replies(a, 21);
    expect(reply?.body).toContain('@mallory, your review for `');
    expect(reply?.body).toContain('did not count: @mallory has read permission');
    expect(approvalComment(a, 21)?.body).toContain('Not counted: @mallory');
    a.w.gh.assertNoViolations();
  });

  it('a Deny button press: the tool is refused and nothing is published', async () => {
    const a = await createAppWorld({ config: CONFIG, startLoops: true });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 7, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 7, 'alice', '@agent fix it').payload);
    const check = await withButtons(a);
    const deny = check.actions?.find((b) => b.identifier.startsWith('deny:'));
    await pressButton(a, check, 'bob', deny?.identifier ?? '');
    await finished(a);
    expect(a.w.gh.state.pulls(a.w.repo)).toHaveLength(0);
    const approval = a.w.gh.state.comments(a.w.repo, 7).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toMatch(/Denied/);
    expect(a.w.gh.state.checkRun(check.id)?.status).toBe('completed');
  });

  it("default config: a reader's /approve gets a reaction and a reply, a writer's 4-character prefix approves", async () => {
    const config = 'agents:\n  demo:\n    adapter: demo\napprovals:\n  timeout: 30s\n';
    const a = await createAppWorld({ config, startLoops: true });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 9, title: 'Fix the README typo', body: 'projcet', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 9, 'alice', '@agent demo: fix the typo').payload);
    await withButtons(a);
    const [running] = await a.store.list();
    const [pending] = await a.store.pendingApprovals({ runId: running?.id });
    const id = pending?.approvalId ?? '';
    expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{8}$/);

    const mallory = commentEvent(a.w, 9, 'mallory', `/approve ${id}`);
    await a.receive('issue_comment', mallory.payload);
    await waitFor(() => replies(a, 9)[0], 'a reply to mallory');
    expect(replies(a, 9)[0]?.body).toContain('@mallory, your `/approve` for `');
    expect(replies(a, 9)[0]?.body).toContain('Approvers: users with write permission or above.');
    await waitFor(
      () => a.w.gh.state.reactions.find((r) => r.content === 'confused' && r.target.id === mallory.commentId),
      'a reaction on mallory’s comment',
    );
    await waitFor(() => approvalComment(a, 9)?.body.includes('Not counted: @mallory') || undefined, 'the edit');

    await a.receive('issue_comment', commentEvent(a.w, 9, 'alice', `/approve ${id.slice(0, 4)}`).payload);
    const run = await finished(a);
    expect(run).toMatchObject({ state: 'succeeded', conclusion: 'success' });
    expect(approvalComment(a, 9)?.body).toContain('**Approved** by @alice (write permission)');
    expect(replies(a, 9)).toHaveLength(1);
    a.w.gh.assertNoViolations();
  });
});
