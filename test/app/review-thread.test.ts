import { afterEach, describe, expect, it } from 'vitest';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
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

describe('the app: a mention in a review comment', () => {
  it('passes the comment’s place in the diff through to the run, which answers in the comment’s thread', async () => {
    const a = await createAppWorld({ config: CONFIG, startLoops: true });
    world = a;
    const { w } = a;
    const head = await w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
    w.gh.state.addPull(w.repo, {
      number: 21,
      title: 'Docs',
      headRef: 'docs',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    const body = '@agent demo: fix the typo on this line';
    const hunk = '@@ -1,3 +1,3 @@\n # Demo project\n \n+This projcet shows how agent-mux runs an agent.';
    const comment = w.gh.state.addReviewComment(w.repo, 21, {
      body,
      user: 'alice',
      path: 'README.md',
      line: 3,
      diffHunk: hunk,
    });
    const payload = webhookPayload(
      'pull_request_review_comment',
      'created',
      { owner: 'octo', repo: 'demo', body, login: 'alice', number: 21, title: 'Docs' },
      (p) => 'line' in (p.comment as object),
    );
    Object.assign(payload.comment as object, {
      id: comment.id,
      path: 'README.md',
      line: 3,
      side: 'RIGHT',
      diff_hunk: hunk,
    });
    Object.assign((payload.pull_request as { head: object }).head, { sha: head, ref: 'docs' });
    await a.receive('pull_request_review_comment', payload);

    const [queued] = await waitFor(async () => {
      const runs = await a.store.list();
      return runs.length > 0 ? runs : undefined;
    }, 'the run');
    expect(queued?.job.reviewComments).toEqual([
      expect.objectContaining({ id: comment.id, path: 'README.md', lines: { start: 3, end: 3 }, side: 'RIGHT' }),
    ]);
    expect(queued?.job.prompt).toContain('File: README.md\nLine 3, side RIGHT');

    const check: FakeCheckRun = await waitFor(
      () => w.gh.state.checkRuns(w.repo).find((c) => (c.actions ?? []).length > 0),
      'the Approve button',
    );
    const press = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login: 'bob' });
    Object.assign(press.check_run as object, { id: check.id, external_id: check.externalId });
    press.requested_action = {
      identifier: check.actions?.find((b) => b.identifier.startsWith('approve:'))?.identifier,
    };
    await a.receive('check_run', press);

    const reply = await waitFor(
      () => w.gh.state.reviewComments(w.repo, 21).find((c) => c.inReplyToId === comment.id),
      'the reply in the thread',
    );
    const commit = await w.git(['rev-parse', 'docs'], w.bare);
    expect(reply.body).toContain(`Changed \`README.md\` line 3 in [${commit.slice(0, 7)}]`);
    w.gh.assertNoViolations();
  });
});
