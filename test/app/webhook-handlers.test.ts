import { afterEach, describe, expect, it } from 'vitest';
import { commentEvent, SELF_LOGIN } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { type AppWorld, createAppWorld } from './app-world.ts';

const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  users: []
  permission: maintain
  timeout: 20s
`;

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function setUp(): Promise<AppWorld> {
  world = await createAppWorld({ config: CONFIG });
  world.w.gh.state.addIssue(world.w.repo, { number: 12, title: 'Fix the README typo', body: '', user: 'alice' });
  return world;
}

/** A pull request #21 on a branch of the world's repository; returns its head sha. */
async function addPull(a: AppWorld): Promise<string> {
  const head = await a.w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
  a.w.gh.state.addPull(a.w.repo, {
    number: 21,
    title: 'Docs',
    headRef: 'docs',
    headSha: head,
    baseRef: 'main',
    user: 'alice',
  });
  return head;
}

describe('webhook handlers (probot.receive with GitHub’s example payloads)', () => {
  it('a mention queues one run, for the issue, with the delivery id as job id', async () => {
    const a = await setUp();
    const { eventName, payload } = commentEvent(a.w, 12, 'alice', '@agent demo: fix the typo please');
    const id = await a.receive(eventName, payload);
    expect(await a.runtime.dispatchPending()).toEqual([expect.objectContaining({ kind: 'enqueued' })]);
    const runs = await a.store.list();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ state: 'queued', issueKey: 'octo/demo#12', adapter: 'demo', installationId: 1 });
    expect(runs[0]?.job).toMatchObject({ id, agentName: 'demo', instruction: 'fix the typo please' });
    expect(a.w.gh.state.reactions.map((r) => r.content)).toEqual(['eyes']);
    a.w.gh.assertNoViolations();
  });

  it('the same delivery received twice starts one run', async () => {
    const a = await setUp();
    const { eventName, payload } = commentEvent(a.w, 12, 'alice', '@agent fix it');
    await a.receive(eventName, structuredClone(payload), 'same-delivery');
    await a.receive(eventName, structuredClone(payload), 'same-delivery');
    await a.runtime.dispatchPending();
    expect(await a.store.list()).toHaveLength(1);
  });

  const unrelated: { name: string; event: string; payload: () => Record<string, unknown> }[] = [
    {
      name: 'an edited comment',
      event: 'issue_comment',
      payload: () => webhookPayload('issue_comment', 'edited', { body: '@agent fix it' }),
    },
    { name: 'a locked issue', event: 'issues', payload: () => webhookPayload('issues', 'locked') },
    { name: 'a closed pull request', event: 'pull_request', payload: () => webhookPayload('pull_request', 'closed') },
  ];
  it.each(unrelated)('$name is not even recorded', async ({ event, payload }) => {
    const a = await setUp();
    await a.receive(event, payload());
    expect(await a.store.takeEvent()).toBeUndefined();
    expect(await a.store.list()).toEqual([]);
  });

  it('a comment without a command, or the app’s own comment, queues nothing', async () => {
    const a = await setUp();
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', 'Thanks, looks good').payload);
    await a.receive('issue_comment', commentEvent(a.w, 12, SELF_LOGIN, '@agent fix it', { bot: true }).payload);
    const results = await a.runtime.dispatchPending();
    expect(results.map((r) => r.kind)).toEqual(['ignored', 'ignored']);
    expect(await a.store.list()).toEqual([]);
  });

  it('`/approve <id>` is recorded as an answer for the issue', async () => {
    const a = await setUp();
    const event = commentEvent(a.w, 12, 'bob', '/approve appr-1');
    await a.receive('issue_comment', event.payload);
    expect(await a.runtime.dispatchPending()).toEqual([{ kind: 'answer', issueKey: 'octo/demo#12' }]);
    const [answer] = await a.store.takeAnswers('octo/demo#12');
    expect(answer).toMatchObject({
      kind: 'answer',
      answer: {
        approvalId: 'appr-1',
        decision: 'approve',
        actor: { login: 'bob' },
        via: 'comment',
        // Where to react if the answer does not count.
        source: { kind: 'issue_comment', commentId: event.commentId },
      },
    });
  });

  it('`@agent cancel` asks the issue’s runs to stop', async () => {
    const a = await setUp();
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent cancel').payload);
    const results = await a.runtime.dispatchPending();
    const [run] = await a.store.list();
    expect(results[1]).toEqual({ kind: 'cancel', runIds: [run?.id] });
    expect(run?.cancelRequested).toBe(true);
  });

  it('pull_request.synchronize voids the pull request’s pending approvals', async () => {
    const a = await setUp();
    const payload = webhookPayload('pull_request', 'synchronize', { owner: 'octo', repo: 'demo', number: 21 });
    await a.receive('pull_request', payload);
    expect(await a.runtime.dispatchPending()).toEqual([{ kind: 'void', issueKey: 'octo/demo#21' }]);
    const [answer] = await a.store.takeAnswers('octo/demo#21');
    expect(answer).toMatchObject({ kind: 'void', reason: expect.stringContaining('new commit') });
  });

  it('check_run.requested_action (approve:<id prefix>) becomes an answer for the full approval id, by the sender', async () => {
    const a = await setUp();
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const [run] = await a.store.list();
    const approvalId = '0f4c2a9e-1b7d-4c3e-9a55-2f1e8d7c6b5a';
    await a.store.savePendingApproval(run!.id, run!.issueKey, {
      approvalId,
      toolName: 'write_file',
      commitSha: 'a'.repeat(40),
      commentId: 5,
      askedAt: new Date().toISOString(),
    });
    const payload = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login: 'bob' });
    (payload.check_run as Record<string, unknown>).external_id = run!.id;
    payload.requested_action = { identifier: `deny:${approvalId.slice(0, 12)}` };
    await a.receive('check_run', payload);
    expect(await a.runtime.dispatchPending()).toEqual([{ kind: 'answer', issueKey: 'octo/demo#12' }]);
    const [answer] = await a.store.takeAnswers('octo/demo#12');
    expect(answer).toMatchObject({
      kind: 'answer',
      answer: { approvalId, decision: 'deny', actor: { login: 'bob' }, via: 'check_run' },
    });
  });

  it('a button of a check run that is not an agent-mux run is ignored', async () => {
    const a = await setUp();
    const payload = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login: 'bob' });
    (payload.check_run as Record<string, unknown>).external_id = 'someone-else';
    payload.requested_action = { identifier: 'approve:abc' };
    await a.receive('check_run', payload);
    expect(await a.runtime.dispatchPending()).toEqual([expect.objectContaining({ kind: 'ignored' })]);
  });

  it.each([
    { state: 'approved', decision: 'approve' },
    { state: 'changes_requested', decision: 'deny' },
  ])('a review $state answers every pending approval on its commit', async ({ state, decision }) => {
    const a = await setUp();
    const head = await addPull(a);
    const payload = webhookPayload('pull_request_review', 'submitted', {
      owner: 'octo',
      repo: 'demo',
      login: 'bob',
      number: 21,
      body: '',
    });
    const review = payload.review as Record<string, unknown>;
    review.state = state;
    review.commit_id = head;
    await a.receive('pull_request_review', payload);
    expect(await a.runtime.dispatchPending()).toEqual([{ kind: 'answer', issueKey: 'octo/demo#21' }]);
    const [answer] = await a.store.takeAnswers('octo/demo#21');
    expect(answer).toMatchObject({
      kind: 'answer',
      answer: { decision, actor: { login: 'bob' }, commitSha: head, via: 'review' },
    });
    expect(answer?.kind === 'answer' && answer.answer.approvalId).toBeUndefined();
  });

  it('comments without a command cost no GitHub call once the repository’s config was read', async () => {
    const a = await setUp();
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', 'Thanks, looks good to me.').payload);
    await a.runtime.dispatchPending();
    const afterFirst = a.w.gh.requests.length;
    for (let i = 0; i < 20; i++) {
      await a.receive('issue_comment', commentEvent(a.w, 12, 'bob', `Plain comment ${i}, no mention.`).payload);
    }
    const results = await a.runtime.dispatchPending();
    expect(results).toHaveLength(20);
    expect(results.every((r) => r.kind === 'ignored')).toBe(true);
    expect(a.w.gh.requests.slice(afterFirst).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // A mention right behind them is still read in full and queued.
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    expect(await a.runtime.dispatchPending()).toEqual([expect.objectContaining({ kind: 'enqueued' })]);
  });

  it('dispatches the events of one issue in order while other issues go on', async () => {
    const a = await setUp();
    for (const number of [13, 14, 15]) {
      a.w.gh.state.addIssue(a.w.repo, { number, title: `Issue ${number}`, body: '', user: 'alice' });
    }
    for (const number of [12, 13, 14, 15]) {
      await a.receive('issue_comment', commentEvent(a.w, number, 'alice', '@agent fix it').payload);
      await a.receive('issue_comment', commentEvent(a.w, number, 'alice', '@agent cancel').payload);
    }
    const results = await a.runtime.dispatchPending();
    expect(results.filter((r) => r.kind === 'enqueued')).toHaveLength(4);
    const runs = await a.store.list();
    // Every issue's cancel came after its mention: each run was asked to stop.
    expect(runs.map((run) => run.cancelRequested)).toEqual([true, true, true, true]);
  });
});
