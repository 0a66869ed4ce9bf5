import { describe, expect, it } from 'vitest';
import {
  answerFromButton,
  answerFromCommand,
  answerFromReview,
  answerName,
} from '../../../src/github/approvals/answer-from.ts';

const bob = { login: 'bob', type: 'User' };

describe('the answer each GitHub input makes', () => {
  it('a command, with the comment it was written in and when', () => {
    const source = { kind: 'issue_comment', commentId: 7 } as const;
    expect(
      answerFromCommand({ kind: 'deny', approvalId: 'k3v9', reason: 'no' }, { actor: bob, source, givenAt: 'T' }),
    ).toEqual({ approvalId: 'k3v9', decision: 'deny', reason: 'no', actor: bob, via: 'comment', source, givenAt: 'T' });
    expect(answerFromCommand({ kind: 'approve', approvalId: 'k3v9' }, { actor: bob })).toEqual({
      approvalId: 'k3v9',
      decision: 'approve',
      reason: undefined,
      actor: bob,
      via: 'comment',
    });
  });

  it('a review: approved approves, changes requested denies with the body, anything else nothing', () => {
    const base = { body: ' wrong file ', actor: bob, commitSha: 'abc', submittedAt: 'T' };
    expect(answerFromReview({ ...base, state: 'APPROVED' })).toEqual({
      decision: 'approve',
      reason: undefined,
      actor: bob,
      commitSha: 'abc',
      via: 'review',
      givenAt: 'T',
    });
    expect(answerFromReview({ ...base, state: 'changes_requested' })).toMatchObject({
      decision: 'deny',
      reason: 'wrong file',
    });
    expect(answerFromReview({ ...base, body: '  ', state: 'CHANGES_REQUESTED' })?.reason).toBeUndefined();
    expect(answerFromReview({ ...base, state: 'COMMENTED' })).toBeUndefined();
    expect(answerFromReview({ ...base, state: 'dismissed' })).toBeUndefined();
  });

  it('a button press, for the id the front end resolved', () => {
    expect(answerFromButton({ decision: 'approve', approvalIdPrefix: 'k3v9q2xa' }, bob, 'k3v9q2xa')).toEqual({
      approvalId: 'k3v9q2xa',
      decision: 'approve',
      actor: bob,
      via: 'check_run',
    });
  });

  it('how a reply names each', () => {
    const comment = answerFromCommand({ kind: 'approve', approvalId: 'k3v9' }, { actor: bob });
    expect(answerName(comment, true)).toBe('`/approve k3v9`');
    expect(answerName(comment, false)).toBe('`/approve`');
    expect(answerName(answerFromButton({ decision: 'deny', approvalIdPrefix: 'x' }, bob, 'x'), true)).toBe(
      'deny button',
    );
    expect(answerName({ decision: 'approve', actor: bob, via: 'review' }, true)).toBe('review');
  });
});
