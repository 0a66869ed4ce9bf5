/**
 * The approval request of an attempt whose worker died: recovery marks its comment superseded (no
 * "reply /approve" left), the new attempt's request is linked from it, and an answer to the old id
 * (a comment or a button press) gets a visible reply instead of silence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderApprovalComment } from '../../src/github/approvals/render-approval-comment.ts';
import { commentEvent } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { type AppWorld, createAppWorld } from './app-world.ts';

const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  permission: maintain
`;

const LIMITS = { perRepo: 2, perAdapter: {}, defaultPerAdapter: 4 };
const OLD_ID = 'oldd1234';

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A worker that asked approval (a real approval comment), then died without a word. */
async function deadWorkerAsking(a: AppWorld) {
  const claimed = await a.store.claim('dead', 1, LIMITS);
  if (claimed === undefined) throw new Error('nothing to claim');
  const { run, lease } = claimed;
  const check = await a.w.api.createCheckRun(a.w.repo, {
    name: 'agent-mux / demo',
    headSha: (await a.w.api.getBranchSha(a.w.repo, 'main')) ?? '',
    status: 'in_progress',
    externalId: run.id,
  });
  const tracking = await a.w.api.createComment(a.w.repo, 12, `<!-- agent-mux:run:${run.id} -->\nstarting…`);
  const body = renderApprovalComment({
    approvalId: OLD_ID,
    agent: 'demo',
    toolName: 'write_file',
    input: { path: 'README.md' },
    commitSha: 'a'.repeat(40),
    approvers: 'users with maintain permission or above',
    timeoutText: '10 min',
  });
  const request = await a.w.api.createComment(a.w.repo, 12, body);
  await a.store.update(lease, { checkRunId: check.id, commentId: tracking.id });
  await a.store.savePendingApproval(run.id, run.issueKey, {
    approvalId: OLD_ID,
    toolName: 'write_file',
    commitSha: 'a'.repeat(40),
    commentId: request.id,
    askedAt: new Date().toISOString(),
  });
  await new Promise((resolve) => setTimeout(resolve, 10)); // the 1 ms lease is over
  return { run, checkRunId: check.id, trackingId: tracking.id, requestId: request.id };
}

function replies(a: AppWorld): string[] {
  return a.w.gh.state
    .comments(a.w.repo, 12)
    .filter((c) => c.body.startsWith('<!-- agent-mux:approval-reply -->'))
    .map((c) => c.body);
}

describe('approvals of a dead attempt', () => {
  it('are marked superseded with a link to the new request; answers to them are told so, not ignored', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const dead = await deadWorkerAsking(a);

    expect(await a.runtime.recover()).toHaveLength(1);
    const superseded = a.w.gh.state.comment(dead.requestId)?.body ?? '';
    expect(superseded).toContain('### Superseded: `write_file`');
    expect(superseded).not.toContain('Approval needed');
    expect(superseded).not.toContain(`Reply \`/approve ${OLD_ID}\``);
    expect(superseded).toContain('**Superseded**: this request belonged to an attempt whose worker stopped');
    expect(superseded).toContain(`#issuecomment-${dead.trackingId}`);
    expect(await a.store.pendingApprovals({})).toEqual([]);
    expect((await a.store.supersededApprovals({ runId: dead.run.id })).map((s) => s.approvalId)).toEqual([OLD_ID]);

    // No attempt in flight: bob's answer to the old request is told, not left in the store unread.
    await a.receive('issue_comment', commentEvent(a.w, 12, 'bob', `/approve ${OLD_ID}`).payload);
    await a.runtime.dispatchPending();
    expect(replies(a)).toHaveLength(1);
    expect(replies(a)[0]).toContain(`@bob, your \`/approve ${OLD_ID}\` did not count`);
    expect(replies(a)[0]).toContain('was superseded by a new attempt of the run');
    expect(await a.store.takeAnswers(dead.run.issueKey)).toEqual([]);

    // The new attempt asks again: the old comment links to the new request.
    const work = a.runtime.workOnce('live');
    const [fresh] = await waitForPending(a);
    const linked = await waitForValue(() => {
      const body = a.w.gh.state.comment(dead.requestId)?.body ?? '';
      return body.includes('Asked again as') ? body : undefined;
    });
    expect(linked).toContain(`Asked again as [\`${fresh!.approvalId}\`](#issuecomment-${fresh!.commentId})`);

    // The old button on the dead attempt's check run, pressed now: told, with what waits now.
    const press = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login: 'bob' });
    Object.assign(press.check_run as Record<string, unknown>, { id: dead.checkRunId, external_id: dead.run.id });
    press.requested_action = { identifier: `approve:${OLD_ID}` };
    await a.receive('check_run', press);
    await a.runtime.dispatchPending();
    expect(replies(a)).toHaveLength(2);
    expect(replies(a)[1]).toContain('your approve button did not count');
    expect(replies(a)[1]).toContain(`Waiting now: \`${fresh!.approvalId}\``);

    // The new request is answered as usual.
    await a.receive('issue_comment', commentEvent(a.w, 12, 'bob', `/approve ${fresh!.approvalId}`).payload);
    await a.runtime.dispatchPending();
    expect(await work).toMatchObject({ kind: 'ran', state: 'succeeded' });
    a.w.gh.assertNoViolations();
  });
});

/** Polls `probe` until it gives a value; 20 s at most (the suite runs files side by side on a small machine). */
async function waitForValue<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

function waitForPending(a: AppWorld) {
  return waitForValue(async () => {
    const pending = await a.store.pendingApprovals({ issueKey: 'octo/demo#12' });
    return pending.length > 0 ? pending : undefined;
  });
}
