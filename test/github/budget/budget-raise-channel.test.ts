import { describe, expect, it } from 'vitest';
import type { Budget } from '../../../src/core/run/run-options.ts';
import { approvalActions } from '../../../src/github/approvals/approval-buttons.ts';
import { BUDGET_TOOL_NAME, type BudgetAsk } from '../../../src/github/approvals/github-approval-channel.ts';
import { setup } from '../../support/approval-channel-harness.ts';

// Issue 37.2: a run that spent its budget asks on GitHub, like an approval, for a raise.
const dollars: BudgetAsk = {
  spent: { usd: 2.03, tokens: 91_000, budget: { usd: 2 } },
  daily: 'today: $7.40 of $20.00 for this repository',
};
const tokens: BudgetAsk = { spent: { usd: 0, tokens: 6_600, budget: { tokens: 6_000 } } };
const user = (login: string) => ({ login, type: 'User' });

async function paused(ask: BudgetAsk = dollars, signal = new AbortController().signal) {
  const s = setup();
  const raised = s.channel.askBudget(ask, signal);
  for (let i = 0; i < 100 && s.channel.pending.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
  const [pending] = s.channel.pending;
  if (pending === undefined) throw new Error('nothing pending');
  return { ...s, raised, pending, comment: () => s.comments.get(pending.commentId) ?? '' };
}

const settledWithin = async (promise: Promise<Budget | undefined>) =>
  Promise.race([promise, new Promise((r) => setTimeout(() => r('still waiting'), 50))]);

describe('asking GitHub to raise a spent budget', () => {
  it('posts what was spent, the day so far, how to raise and how to stop, as a pending approval', async () => {
    const { pending, comment } = await paused();
    expect(pending.toolName).toBe(BUDGET_TOOL_NAME);
    const body = comment();
    expect(body).toContain(`<!-- agent-mux:approval:${pending.approvalId} -->`);
    expect(body).toContain(
      'This run reached **$2.03** of its **$2.00** budget (today: $7.40 of $20.00 for this repository).',
    );
    expect(body).toContain('`/budget 4.06`');
    expect(body).toContain(`\`/deny ${pending.approvalId}\``);
    expect(body).toContain('unanswered for 30 min, the run ends `budget_exceeded`');
    // No check-run button can say how much: a paused budget gets none.
    expect(approvalActions([pending])).toEqual([]);
  });

  it('a token budget is raised in tokens', async () => {
    const { comment } = await paused(tokens);
    expect(comment()).toContain('reached **6,600 tokens** of its **6,000 tokens** budget');
    expect(comment()).toContain('`/budget 13200 tokens`');
  });

  it("a reader's /budget does not count: reaction, one reply, named on the comment; an approver's raises it", async () => {
    const { channel, raised, comment, reactions, comments } = await paused();
    const source = { kind: 'issue_comment' as const, commentId: 501 };
    const byAlice = {
      decision: 'raise' as const,
      raise: { amount: 5, unit: 'usd' as const },
      actor: user('carol'),
      via: 'comment' as const,
      source,
    };
    expect(await channel.answer({ ...byAlice, actor: user('alice') })).toEqual({
      ignored: expect.stringContaining('maintain'),
    });
    expect(await channel.answer({ ...byAlice, actor: user('alice') })).toEqual({
      ignored: expect.stringContaining('maintain'),
    });
    expect(await settledWithin(raised)).toBe('still waiting');
    expect(reactions).toEqual([
      { target: source, content: 'confused' },
      { target: source, content: 'confused' },
    ]);
    const replies = [...comments.values()].filter((b) => b.includes('approval-reply'));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain('@alice, your `/budget`');
    expect(comment()).toContain('Not counted: @\u200balice (@\u200balice has write permission');
    expect(await channel.answer({ ...byAlice, actor: user('bob') })).toEqual({ applied: [expect.any(String)] });
    expect(await raised).toEqual({ usd: 5 });
    expect(comment()).toContain('✅ Raised to **$5.00** by @bob: the agent goes on.');
    expect(channel.pending).toEqual([]);
  });

  it('a raise to no more than was spent does not count, and says what was spent', async () => {
    const { channel, raised } = await paused();
    const outcome = await channel.answer({
      decision: 'raise',
      raise: { amount: 2, unit: 'usd' },
      actor: user('bob'),
      via: 'comment',
    });
    expect(outcome).toEqual({ ignored: 'the answer did not match a pending approval on the head commit' });
    expect(await settledWithin(raised)).toBe('still waiting');
    const tokenRaise = await channel.answer({
      decision: 'raise',
      raise: { amount: 500_000, unit: 'tokens' },
      actor: user('bob'),
      via: 'comment',
    });
    expect(tokenRaise).toEqual({ ignored: expect.any(String) });
    expect(await settledWithin(raised)).toBe('still waiting');
  });

  it('/approve <id> does not raise (it says no amount); /deny <id> stops the run', async () => {
    const { channel, raised, pending, comment, notes } = await paused();
    await channel.answer({ approvalId: pending.approvalId, decision: 'approve', actor: user('bob'), via: 'comment' });
    expect(notes.join('\n')).toContain('is raised with `/budget <amount>`');
    expect(await settledWithin(raised)).toBe('still waiting');
    await channel.answer({
      approvalId: pending.approvalId,
      decision: 'deny',
      reason: 'too dear',
      actor: user('bob'),
      via: 'comment',
    });
    expect(await raised).toBeUndefined();
    expect(comment()).toContain('⛔ Not raised by @bob: too dear. The run ends.');
  });

  it('an approving review approves tool calls, never a budget', async () => {
    const { channel, raised } = await paused();
    expect(await channel.answer({ decision: 'approve', actor: user('bob'), via: 'review' })).toEqual({
      ignored: 'no pending approval',
    });
    expect(await settledWithin(raised)).toBe('still waiting');
  });

  it('unanswered until the approval timeout: not raised, and the comment says so', async () => {
    const timeout = new AbortController();
    const { raised, comment } = await paused(dollars, timeout.signal);
    timeout.abort(new DOMException('timed out', 'TimeoutError'));
    expect(await raised).toBeUndefined();
    expect(comment()).toContain('no decision within 30 min');
  });

  it('a push voids it: the raise was asked on another commit', async () => {
    const { channel, raised, push, comment } = await paused();
    push('b'.repeat(40));
    await channel.answer({ decision: 'raise', raise: { amount: 5, unit: 'usd' }, actor: user('bob'), via: 'comment' });
    expect(await raised).toBeUndefined();
    expect(comment()).toContain('⚪ Void: a new commit (bbbbbbb)');
  });

  it('/budget with no run paused gets one reply saying so', async () => {
    const { channel, comments } = setup();
    const answer = {
      decision: 'raise' as const,
      raise: { amount: 5, unit: 'usd' as const },
      actor: user('bob'),
      via: 'comment' as const,
    };
    expect(await channel.answer(answer)).toEqual({ ignored: 'this run is not paused on its budget' });
    await channel.answer(answer);
    const replies = [...comments.values()].filter((b) => b.includes('approval-reply'));
    expect(replies).toEqual([
      expect.stringContaining('your `/budget` did not count: this run is not paused on its budget'),
    ]);
  });

  it('asks once at a time', async () => {
    const { channel } = await paused();
    expect(await channel.askBudget(dollars, new AbortController().signal)).toBeUndefined();
    expect(channel.pending).toHaveLength(1);
  });
});
