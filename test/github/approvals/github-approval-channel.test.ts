import { describe, expect, it } from 'vitest';
import { setup } from '../../support/approval-channel-harness.ts';

const ask = (channel: ReturnType<typeof setup>['channel'], id = 'ap1', signal = new AbortController().signal) =>
  channel.request(
    { approvalId: id, runId: 'run_1', toolName: 'write_file', input: { path: 'a.txt', content: 'sk-secret-123456' } },
    signal,
  );

async function untilPending(channel: ReturnType<typeof setup>['channel'], count = 1) {
  for (let i = 0; i < 100 && channel.pending.length < count; i++) await new Promise((r) => setTimeout(r, 1));
  expect(channel.pending).toHaveLength(count);
}

describe('GitHub approval channel', () => {
  it('posts a comment with the redacted arguments and the commands, and asks the approvers for a review', async () => {
    const { channel, comments, reviewRequests } = setup();
    void ask(channel);
    await untilPending(channel);
    const body = comments.get(1) ?? '';
    expect(body).toContain('<!-- agent-mux:approval:ap1 -->');
    expect(body).toContain('`/approve ap1`');
    expect(body).toContain('`/deny ap1 <reason>`');
    expect(body).toContain('"path": "a.txt"');
    expect(body).not.toContain('sk-secret-123456');
    expect(reviewRequests).toEqual([{ users: ['erin'], teams: ['reviewers'] }]);
  });

  it('ignores answers from users who are not approvers, then takes an approver’s', async () => {
    const { channel, comments, notes } = setup();
    const decision = ask(channel);
    await untilPending(channel);
    const actor = (login: string) => ({ login, type: 'User' });
    expect(
      await channel.answer({ approvalId: 'ap1', decision: 'approve', actor: actor('alice'), via: 'comment' }),
    ).toEqual({
      ignored: expect.stringContaining('write permission'),
    });
    expect(
      await channel.answer({
        approvalId: 'ap1',
        decision: 'approve',
        actor: { login: 'agent-mux[bot]', type: 'Bot' },
        via: 'comment',
      }),
    ).toEqual({ ignored: expect.stringContaining('agent-mux itself') });
    expect(
      await channel.answer({
        approvalId: 'ap1',
        decision: 'approve',
        actor: { login: 'erin[bot]', type: 'Bot' },
        via: 'comment',
      }),
    ).toEqual({ ignored: expect.stringContaining('bot') });
    expect(channel.pending).toHaveLength(1);
    expect(
      await channel.answer({ approvalId: 'ap1', decision: 'approve', actor: actor('bob'), via: 'comment' }),
    ).toEqual({
      applied: ['ap1'],
    });
    expect(await decision).toEqual({ kind: 'approve', scope: 'once', by: 'bob' });
    expect(comments.get(1)).toContain('**Approved** by @bob (maintain permission)');
    expect(notes.some((n) => n.includes('ignored approve from @alice'))).toBe(true);
  });

  it('counts listed users and members of listed teams as approvers', async () => {
    for (const login of ['erin', 'carol', 'dave']) {
      const { channel } = setup();
      const decision = ask(channel);
      await untilPending(channel);
      await channel.answer({ approvalId: 'ap1', decision: 'approve', actor: { login, type: 'User' }, via: 'comment' });
      expect((await decision).kind).toBe('approve');
    }
  });

  it('denies with the approver’s reason', async () => {
    const { channel, comments } = setup();
    const decision = ask(channel);
    await untilPending(channel);
    await channel.answer({
      approvalId: 'ap1',
      decision: 'deny',
      reason: 'not that file',
      actor: { login: 'bob', type: 'User' },
      via: 'comment',
    });
    expect(await decision).toEqual({ kind: 'deny', reason: 'not that file', by: 'bob' });
    expect(comments.get(1)).toContain('**Denied** by @bob: not that file');
  });

  it('voids a pending approval when a new commit was pushed, whoever answers', async () => {
    const { channel, comments, push } = setup();
    const decision = ask(channel);
    await untilPending(channel);
    push('b'.repeat(40));
    const outcome = await channel.answer({
      approvalId: 'ap1',
      decision: 'approve',
      actor: { login: 'bob', type: 'User' },
      via: 'comment',
    });
    expect(outcome).toEqual({ ignored: expect.any(String) });
    const result = await decision;
    expect(result.kind).toBe('deny');
    expect(result.kind === 'deny' && result.reason).toContain('new commit (bbbbbbb) was pushed');
    expect(comments.get(1)).toContain('**Void**');
  });

  it('takes a review only for the commit the approval was asked on, and it answers every pending approval', async () => {
    const { channel } = setup();
    const first = ask(channel, 'ap1');
    const second = ask(channel, 'ap2');
    await untilPending(channel, 2);
    const bob = { login: 'bob', type: 'User' };
    expect(await channel.answer({ decision: 'approve', actor: bob, commitSha: 'c'.repeat(40), via: 'review' })).toEqual(
      {
        ignored: expect.any(String),
      },
    );
    expect(channel.pending).toHaveLength(2);
    expect(await channel.answer({ decision: 'approve', actor: bob, commitSha: 'a'.repeat(40), via: 'review' })).toEqual(
      {
        applied: ['ap1', 'ap2'],
      },
    );
    expect((await first).kind).toBe('approve');
    expect((await second).kind).toBe('approve');
  });

  it('issue 32.14: a review submitted in the ask’s second may predate it and does not count; the next second does', async () => {
    const posted = '2026-11-28T10:00:05Z';
    const { channel } = setup({
      api: {
        async createComment(_ref, _n, body) {
          return {
            id: 1,
            body,
            htmlUrl: 'https://github.com/c/1',
            user: undefined,
            createdAt: posted,
            updatedAt: posted,
          };
        },
        async updateComment() {},
        async addReaction() {},
        async requestReviewers() {},
        async getPermission() {
          return 'maintain';
        },
        async isTeamMember() {
          return false;
        },
      },
    });
    const decision = ask(channel, 'ap1');
    await untilPending(channel);
    const bob = { login: 'bob', type: 'User' };
    const review = (givenAt: string) =>
      channel.answer({ decision: 'approve', actor: bob, commitSha: 'a'.repeat(40), via: 'review', givenAt });
    expect(await review('2026-11-28T10:00:05Z')).toEqual({ ignored: expect.any(String) });
    expect(await review('2026-11-28T10:00:04Z')).toEqual({ ignored: expect.any(String) });
    expect(channel.pending).toHaveLength(1);
    expect(await review('2026-11-28T10:00:06Z')).toEqual({ applied: ['ap1'] });
    expect((await decision).kind).toBe('approve');
  });

  it('issue 32.12: 20 concurrent requests open 5 approval comments; the rest are denied without one, and room frees up', async () => {
    const { channel, comments, notes } = setup();
    const decisions = Array.from({ length: 20 }, (_, i) => ask(channel, `ap${i}`));
    await untilPending(channel, 5);
    const denied = await Promise.all(decisions.slice(5));
    for (const decision of denied)
      expect(decision).toEqual({ kind: 'deny', reason: '5 approvals are already open: answer those first' });
    expect(comments.size).toBe(5);
    expect(notes.filter((n) => n.includes('already open'))).toHaveLength(15);
    // One answered: a new question may be asked again.
    await channel.answer({
      approvalId: 'ap0',
      decision: 'approve',
      actor: { login: 'bob', type: 'User' },
      via: 'comment',
    });
    expect((await decisions[0])?.kind).toBe('approve');
    void ask(channel, 'ap99');
    await untilPending(channel, 5);
    expect(comments.size).toBe(6);
  });

  it('denies and marks the comment when the wait is aborted (timeout or end of run)', async () => {
    const { channel, comments } = setup();
    const controller = new AbortController();
    const decision = ask(channel, 'ap1', controller.signal);
    await untilPending(channel);
    controller.abort(new DOMException('timed out', 'TimeoutError'));
    expect(await decision).toMatchObject({ kind: 'deny', timedOut: true });
    for (let i = 0; i < 50 && !comments.get(1)?.includes('Denied'); i++) await new Promise((r) => setTimeout(r, 1));
    expect(comments.get(1)).toContain('no decision within 30 min');
    expect(channel.pending).toHaveLength(0);
  });

  it('answers for an unknown approval are ignored', async () => {
    const { channel } = setup();
    expect(
      await channel.answer({
        approvalId: 'nope',
        decision: 'approve',
        actor: { login: 'bob', type: 'User' },
        via: 'comment',
      }),
    ).toEqual({
      ignored: 'no pending approval has the id `nope`; nothing is waiting for approval in this run',
    });
  });

  it('accepts a unique prefix of at least 4 characters, in any case', async () => {
    const { channel } = setup();
    const first = ask(channel, 'k3v9q2xa');
    void ask(channel, 'm7d4b1zr');
    await untilPending(channel, 2);
    const bob = { login: 'bob', type: 'User' };
    expect(await channel.answer({ approvalId: 'k3v', decision: 'approve', actor: bob, via: 'comment' })).toEqual({
      ignored: expect.stringContaining('at least 4 characters'),
    });
    expect(await channel.answer({ approvalId: 'K3V9', decision: 'approve', actor: bob, via: 'comment' })).toEqual({
      applied: ['k3v9q2xa'],
    });
    expect(await first).toEqual({ kind: 'approve', scope: 'once', by: 'bob' });
    expect(channel.pending.map((p) => p.approvalId)).toEqual(['m7d4b1zr']);
  });

  it('an ambiguous prefix counts for nothing and is answered on GitHub, once', async () => {
    const { channel, comments, reactions } = setup();
    void ask(channel, 'k3v9q2xa');
    void ask(channel, 'k3v9abcd');
    await untilPending(channel, 2);
    const answer = {
      approvalId: 'k3v9',
      decision: 'approve' as const,
      actor: { login: 'bob', type: 'User' },
      via: 'comment' as const,
      source: { kind: 'issue_comment' as const, commentId: 500 },
    };
    expect(await channel.answer(answer)).toEqual({ ignored: expect.stringContaining('starts 2 pending approvals') });
    expect(await channel.answer(answer)).toEqual({ ignored: expect.stringContaining('starts 2 pending approvals') });
    expect(channel.pending).toHaveLength(2);
    const replies = [...comments.values()].filter((body) => body.includes('agent-mux:approval-reply'));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain('@bob, your `/approve k3v9` did not count: `k3v9` starts 2 pending approvals');
    expect(replies[0]).toContain('`k3v9q2xa`, `k3v9abcd`): type more of the id');
    expect(reactions[0]).toEqual({ target: { kind: 'issue_comment', commentId: 500 }, content: 'confused' });
  });

  it('voidPending denies everything pending', async () => {
    const { channel } = setup();
    const decision = ask(channel);
    await untilPending(channel);
    await channel.voidPending('the run was cancelled');
    expect(await decision).toEqual({ kind: 'deny', reason: 'the run was cancelled' });
  });
});
