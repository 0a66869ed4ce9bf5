import { describe, expect, it } from 'vitest';
import { anchorText } from '../../../src/github/review/anchor-text.ts';
import { type Finding, findingSchema } from '../../../src/github/review/finding.ts';
import { type LocatedFinding, reconcileFindings } from '../../../src/github/review/reconcile-findings.ts';
import { emptyReviewState, type ReviewState } from '../../../src/github/review/review-state.ts';

const push1 = {
  'src/auth.ts': [
    'export function login(user, password) {',
    '  const query = "SELECT * FROM users WHERE name = \'" + user + "\'";',
    '  return db.run(query);',
    '}',
    'export function logout() {',
    '  session = null;',
    '}',
  ].join('\n'),
  'src/util.ts': ['export const retries = 0;', 'export function sleep(ms) {', '  while (Date.now() < ms) {}', '}'].join(
    '\n',
  ),
};

function finding(input: Partial<Finding> & Pick<Finding, 'path' | 'line' | 'title'>): Finding {
  return findingSchema.parse({ severity: 'major', body: '', ...input });
}

function located(files: Record<string, string>, found: Finding): LocatedFinding {
  return { finding: found, anchor: anchorText(files[found.path] ?? '', found.startLine ?? found.line, found.line) };
}

function review(prior: ReviewState, files: Record<string, string>, headSha: string, found: Finding[]) {
  return reconcileFindings({
    prior,
    headSha,
    reported: found.map((f) => located(files, f)),
    contentAt: (path) => files[path],
  });
}

const sqlInjection = finding({
  path: 'src/auth.ts',
  line: 2,
  severity: 'blocker',
  title: 'SQL injection in login query',
});
const busyWait = finding({ path: 'src/util.ts', line: 3, title: 'Busy wait burns a core' });
const noRetries = finding({ path: 'src/util.ts', line: 1, severity: 'minor', title: 'Zero retries' });

describe('reconcileFindings across pushes', () => {
  it('push 1 posts every finding; push 2 resolves the fixed one, repeats none, and follows moved lines', () => {
    const first = review(emptyReviewState(7), push1, 'aaa1111', [sqlInjection, busyWait, noRetries]);
    expect(first.post.map((p) => p.located.finding.title)).toEqual([
      'SQL injection in login query',
      'Busy wait burns a core',
      'Zero retries',
    ]);
    expect(first.state.findings.every((f) => f.status === 'open')).toBe(true);

    // Push 2: the injection is fixed; two lines are added above the busy wait (it moves to line 5).
    const push2 = {
      'src/auth.ts': push1['src/auth.ts'].replace(
        '  const query = "SELECT * FROM users WHERE name = \'" + user + "\'";',
        '  const query = sql`SELECT * FROM users WHERE name = ${user}`;',
      ),
      'src/util.ts': ['// Helpers.', '', push1['src/util.ts']].join('\n'),
    };
    const movedBusyWait = { ...busyWait, line: 5 };
    const second = review(first.state, push2, 'bbb2222', [movedBusyWait]);
    expect(second.post).toEqual([]);
    expect(second.repeated.map((r) => r.prior.title)).toEqual(['Busy wait burns a core']);
    expect(second.resolve.map((r) => [r.prior.title, r.reason])).toEqual([
      ['SQL injection in login query', 'the code it was about has changed.'],
    ]);
    const byTitle = Object.fromEntries(second.state.findings.map((f) => [f.title, f]));
    expect(byTitle['Busy wait burns a core']).toMatchObject({ status: 'open', line: 5, heldOn: 'bbb2222' });
    // Not reported again, but its code is still there (moved down two lines): it stays open, followed.
    expect(byTitle['Zero retries']).toMatchObject({ status: 'open', line: 3 });
    expect(byTitle['SQL injection in login query']).toMatchObject({ status: 'resolved' });
    expect(second.state.reviewedSha).toBe('bbb2222');
  });

  it('a dismissed finding is not raised again, even reworded', () => {
    const first = review(emptyReviewState(7), push1, 'aaa1111', [busyWait]);
    const dismissed: ReviewState = {
      ...first.state,
      findings: first.state.findings.map((f) => ({ ...f, status: 'dismissed' as const, closedBecause: 'intended' })),
    };
    const again = review(dismissed, push1, 'bbb2222', [{ ...busyWait, title: 'This busy wait burns CPU' }]);
    expect(again.post).toEqual([]);
    expect(again.suppressed).toHaveLength(1);
    expect(again.state.findings).toHaveLength(1);
  });

  it('two findings on the same code are told apart by their titles', () => {
    const other = finding({ path: 'src/auth.ts', line: 2, title: 'Query built with string concatenation is slow' });
    const first = review(emptyReviewState(7), push1, 'a', [sqlInjection, other]);
    expect(first.post).toHaveLength(2);
    const again = review(first.state, push1, 'b', [other, sqlInjection]);
    expect(again.post).toEqual([]);
    expect(again.repeated.map((r) => r.prior.title)).toEqual([
      'Query built with string concatenation is slow',
      'SQL injection in login query',
    ]);
  });

  it('a file that is gone resolves its findings, saying so', () => {
    const first = review(emptyReviewState(7), push1, 'a', [busyWait]);
    const without = { 'src/auth.ts': push1['src/auth.ts'] };
    const second = review(first.state, without, 'b', []);
    expect(second.resolve.map((r) => r.reason)).toEqual(['`src/util.ts` no longer exists.']);
  });

  it('a finding raised again after its code came back is posted anew', () => {
    const first = review(emptyReviewState(7), push1, 'a', [busyWait]);
    const gone = review(first.state, { 'src/auth.ts': push1['src/auth.ts'] }, 'b', []);
    const back = review(gone.state, push1, 'c', [busyWait]);
    expect(back.post).toHaveLength(1);
    expect(new Set(back.state.findings.map((f) => f.id)).size).toBe(2);
  });
});
