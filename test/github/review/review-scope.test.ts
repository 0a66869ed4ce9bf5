import { describe, expect, it } from 'vitest';
import { needsComparison, type ReviewScopeInput, reviewScope } from '../../../src/github/review/review-scope.ts';
import type { ReviewedFinding } from '../../../src/github/review/review-state.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

const finding = (path: string, status: ReviewedFinding['status'] = 'open'): ReviewedFinding => ({
  id: path,
  path,
  line: 1,
  anchor: 'x',
  severity: 'major',
  title: 't',
  status,
  postedOn: A,
  heldOn: A,
});

const input = (over: Partial<ReviewScopeInput>): ReviewScopeInput => ({
  mode: 'findings',
  push: true,
  reviewedSha: A,
  headSha: B,
  comparison: { status: 'ahead', files: ['docs/x.md'] },
  pullFiles: ['src/a.ts', 'src/b.ts', 'docs/x.md'],
  findings: [finding('src/a.ts'), finding('src/b.ts', 'dismissed')],
  ...over,
});

describe('reviewScope', () => {
  it('reviews the whole pull request when off, on a mention, on a first review, after a force push or too many files', () => {
    expect(reviewScope(input({ mode: 'off' })).kind).toBe('whole');
    expect(reviewScope(input({ push: false })).kind).toBe('whole');
    expect(reviewScope(input({ reviewedSha: undefined })).kind).toBe('whole');
    expect(reviewScope(input({ comparison: { status: 'diverged', files: [] } }))).toEqual({
      kind: 'whole',
      why: 'the head does not descend from aaaaaaa, the last head reviewed',
    });
    expect(reviewScope(input({ comparison: undefined })).kind).toBe('whole');
    expect(reviewScope(input({ comparison: { status: 'ahead', files: undefined } })).kind).toBe('whole');
  });

  it('findings: no agent run unless the new commits change a file an open finding is in', () => {
    expect(reviewScope(input({}))).toEqual({
      kind: 'none',
      since: A,
      why: 'the commits since aaaaaaa change no file an open finding is in',
    });
    // A dismissed finding's file does not count.
    expect(reviewScope(input({ comparison: { status: 'ahead', files: ['src/b.ts'] } })).kind).toBe('none');
    expect(reviewScope(input({ comparison: { status: 'ahead', files: ['src/a.ts', 'docs/x.md'] } }))).toEqual({
      kind: 'files',
      since: A,
      files: ['src/a.ts'],
      why: 'the files of open findings changed since aaaaaaa',
    });
  });

  it('new-commits: the pull request’s files the new commits changed; none of them, no agent run', () => {
    expect(reviewScope(input({ mode: 'new-commits' }))).toMatchObject({ kind: 'files', files: ['docs/x.md'] });
    // A file changed back to the base is no longer in the pull request's diff.
    expect(reviewScope(input({ mode: 'new-commits', comparison: { status: 'ahead', files: ['gone.ts'] } }))).toEqual({
      kind: 'none',
      since: A,
      why: "the commits since aaaaaaa change none of the pull request's files",
    });
  });

  it('compares only when the scope depends on it', () => {
    expect(needsComparison(input({}))).toBe(true);
    expect(needsComparison(input({ mode: 'off' }))).toBe(false);
    expect(needsComparison(input({ push: false }))).toBe(false);
    expect(needsComparison(input({ reviewedSha: B }))).toBe(false);
    // The same head again (a redelivered push): reviewed already, no agent run.
    expect(reviewScope(input({ reviewedSha: B, comparison: undefined }))).toEqual({
      kind: 'none',
      since: B,
      why: 'bbbbbbb was reviewed already',
    });
  });
});
