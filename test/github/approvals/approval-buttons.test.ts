import { describe, expect, it } from 'vitest';
import { approvalActions, parseActionIdentifier } from '../../../src/github/approvals/approval-buttons.ts';

const pending = (approvalId: string, toolName = 'write_file') => ({
  approvalId,
  toolName,
  commitSha: 'a'.repeat(40),
  commentId: 1,
  askedAt: '2026-01-01T00:00:00Z',
});

describe('check-run approval buttons', () => {
  it('none without a pending approval', () => {
    expect(approvalActions([])).toEqual([]);
  });

  it.each([
    { id: '0f4c2a9e-1b7d-4c3e-9a55-2f1e8d7c6b5a', tool: 'write_file' },
    { id: 'short', tool: 'a_tool_with_an_extraordinarily_long_name_indeed' },
  ])('Approve / Deny for the oldest of several, within GitHub’s limits ($id)', ({ id, tool }) => {
    const actions = approvalActions([pending(id, tool), pending('second')]);
    expect(actions.map((a) => a.label)).toEqual(['Approve', 'Deny']);
    for (const action of actions) {
      expect(action.identifier.length).toBeLessThanOrEqual(20);
      expect(action.label.length).toBeLessThanOrEqual(20);
      expect(action.description.length).toBeLessThanOrEqual(40);
    }
    expect(actions.map((a) => parseActionIdentifier(a.identifier))).toEqual([
      { decision: 'approve', approvalIdPrefix: id.slice(0, 12) },
      { decision: 'deny', approvalIdPrefix: id.slice(0, 12) },
    ]);
  });

  it.each(['lgtm|26764', 'approve:', 'merge:abc', 'approve: x'])('%s is not an approval button', (identifier) => {
    expect(parseActionIdentifier(identifier)).toBeUndefined();
  });
});
