import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeApprovers } from '../../../src/github/approvals/approver-rule.ts';
import {
  type ApprovalCommentView,
  renderApprovalComment,
} from '../../../src/github/approvals/render-approval-comment.ts';

/** Compares `actual` with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead. */
function expectGolden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url).pathname;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`golden file ${name} was missing: written, check it and re-run`);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const view: ApprovalCommentView = {
  approvalId: 'k3v9q2xa',
  agent: 'claude',
  toolName: 'shell',
  input: { command: 'npm test' },
  reason: 'the policy asks before running it',
  commitSha: '0123456789abcdef0123456789abcdef01234567',
  approvers: describeApprovers({ users: ['alice'], teams: ['org/sec'], permission: 'write' }),
  timeoutText: '30 min',
};

describe('the approval comment', () => {
  it('says who may answer it', () => {
    expect(view.approvers).toBe('users with write permission or above; @alice; team @org/sec');
    expect(describeApprovers({ users: [], teams: [], permission: 'admin' })).toBe('users with admin permission');
  });

  it.each([
    ['approval-pending.md', view],
    [
      'approval-not-counted.md',
      { ...view, notCounted: ['@mallory (@mallory has read permission; approvers need write or a listing)'] },
    ],
    [
      'approval-approved.md',
      { ...view, state: { kind: 'approved', by: 'alice', via: 'listed approver', scope: 'once' } } as const,
    ],
  ])('golden: %s', (name, v) => {
    expectGolden(name, renderApprovalComment(v));
  });
});
