import { afterEach, describe, expect, it } from 'vitest';
import type { GitHubApprovalChannel } from '../../../src/github/approvals/github-approval-channel.ts';
import type { RunOutcome } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, SELF_LOGIN } from '../../support/github-world.ts';
import { runInWorld } from '../../support/run-in-world.ts';

/** The default approver rule: no `approvals.permission`, so it is `trigger.permission` (write). */
const DEFAULT_CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  timeout: 20s
`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs issue `number` with the demo agent as the Action does: approvals answered through the comment poller. */
async function runWithPoller(
  w: GitHubWorld,
  number: number,
  answer: (channel: GitHubApprovalChannel, approvalId: string) => Promise<void>,
): Promise<RunOutcome> {
  w.gh.state.addIssue(w.repo, { number, title: 'Fix the README typo', body: 'It says projcet.', user: 'alice' });
  const decision = await handleTrigger(w.deps, commentEvent(w, number, 'alice', '@agent demo: fix the typo'));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  let answered = false;
  return runInWorld(w, decision.job, {
    answer: (channel) => {
      const first = channel.pending[0];
      if (first !== undefined && !answered) {
        answered = true;
        void answer(channel, first.approvalId);
      }
    },
  });
}

describe('approval answers in the Action (poller, fake GitHub, real git)', () => {
  it('under the default config a writer (the role that may start a run) approves, by a 4-character prefix', async () => {
    const w = await createGitHubWorld({ config: DEFAULT_CONFIG });
    world = w;
    let typed = '';
    const outcome = await runWithPoller(w, 21, async (_channel, id) => {
      expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{8}$/);
      typed = id.slice(0, 4);
      w.gh.state.addComment(w.repo, 21, { body: `/approve ${typed}`, user: 'alice' });
    });
    expect(outcome.conclusion).toBe('success');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'alice' })]);
    const approval = w.gh.state.comments(w.repo, 21).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('**Approved** by @alice (write permission)');
    w.gh.assertNoViolations();
  });

  it("a reader's /approve gets a reaction and one reply at once, and the approval comment names them", async () => {
    const w = await createGitHubWorld({ config: DEFAULT_CONFIG });
    world = w;
    let whilePending = '';
    const outcome = await runWithPoller(w, 22, async (_channel, id) => {
      w.gh.state.addComment(w.repo, 22, { body: `/approve ${id}`, user: 'mallory' });
      w.gh.state.addComment(w.repo, 22, { body: `/approve ${id}`, user: 'mallory' });
      // A bot's answer is never replied to.
      w.gh.state.addComment(w.repo, 22, { body: `/approve ${id}`, user: { login: 'helper[bot]', type: 'Bot' } });
      for (let i = 0; i < 200; i++) {
        const replied = w.gh.state.comments(w.repo, 22).some((c) => c.body.includes('agent-mux:approval-reply'));
        if (replied) break;
        await sleep(10);
      }
      await sleep(100);
      whilePending =
        w.gh.state.comments(w.repo, 22).find((c) => c.body.startsWith('<!-- agent-mux:approval:'))?.body ?? '';
      w.gh.state.addComment(w.repo, 22, { body: `/approve ${id}`, user: 'alice' });
    });
    expect(outcome.conclusion).toBe('success');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'alice' })]);

    const comments = w.gh.state.comments(w.repo, 22);
    const replies = comments.filter((c) => c.body.includes('agent-mux:approval-reply'));
    expect(replies).toHaveLength(1);
    expect(replies[0]?.user.login).toBe(SELF_LOGIN);
    expect(replies[0]?.body).toContain('@mallory, your `/approve` for `');
    expect(replies[0]?.body).toContain('did not count: @mallory has read permission');
    expect(replies[0]?.body).toContain('Approvers: users with write permission or above.');
    const mallorys = comments.filter((c) => c.user.login === 'mallory').map((c) => c.id);
    const confused = w.gh.state.reactions.filter((r) => r.content === 'confused');
    expect(confused.map((r) => r.target.id).sort()).toEqual([...mallorys].sort());
    expect(confused.every((r) => r.target.kind === 'issue_comment')).toBe(true);
    const approval = comments.find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(whilePending).toContain('Approvers: users with write permission or above.');
    expect(whilePending).toContain('Not counted: @mallory (@mallory has read permission');
    expect(approval?.body).toContain('Not counted: @mallory (@mallory has read permission');
    expect(approval?.body).toContain('**Approved** by @alice');
    w.gh.assertNoViolations();
  });
});
