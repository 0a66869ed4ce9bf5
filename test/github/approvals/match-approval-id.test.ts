import { describe, expect, it } from 'vitest';
import { matchApprovalId } from '../../../src/github/approvals/match-approval-id.ts';

const ids = ['k3v9q2xa', 'k3v9m7ab', 'p0r5t8zz', 'p0r5t8zz-2'];

describe('matchApprovalId', () => {
  it.each([
    { typed: 'k3v9q2xa', named: ['k3v9q2xa'] },
    { typed: 'K3V9Q2XA', named: ['k3v9q2xa'] },
    { typed: 'k3v9q', named: ['k3v9q2xa'] },
    { typed: 'p0r5', named: ['p0r5t8zz', 'p0r5t8zz-2'] },
    { typed: 'k3v9', named: ['k3v9q2xa', 'k3v9m7ab'] },
    { typed: 'p0r5t8zz', named: ['p0r5t8zz'] },
    { typed: 'k3v', named: [] },
    { typed: 'zzzz', named: [] },
    { typed: '', named: [] },
  ])('$typed names $named', ({ typed, named }) => {
    expect(matchApprovalId(typed, ids)).toEqual(named);
  });

  it('a short id is named whole even below the shortest prefix', () => {
    expect(matchApprovalId('ab', ['ab', 'abcd'])).toEqual(['ab']);
    expect(matchApprovalId('a', ['ab'])).toEqual([]);
  });
});
