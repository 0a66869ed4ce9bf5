import { describe, expect, it } from 'vitest';
import { suggestionBlock, suggestionsFromDiff } from '../../../src/github/use-cases/suggestions-from-diff.ts';

const head = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
/** The pull request's diff shows new lines 1–7 of f.txt. */
const pullFiles = [{ path: 'f.txt', patch: '@@ -1,6 +1,7 @@\n a\n+b\n c\n d\n e\n f\n g' }];
const change = (patch: string) => [{ path: 'f.txt', status: 'modified' as const, patch, headLines: head }];

describe('suggestionsFromDiff', () => {
  it('replaces changed lines, multi-line with startLine', () => {
    const plan = suggestionsFromDiff(change('@@ -2,2 +2,1 @@\n-b\n-c\n+bc'), pullFiles);
    expect(plan).toEqual({
      fits: true,
      changedLines: 3,
      suggestions: [{ path: 'f.txt', startLine: 2, line: 3, body: '```suggestion\nbc\n```' }],
    });
  });

  it('anchors a pure insertion on the line before it, or on line 1 at the top', () => {
    const after = suggestionsFromDiff(change('@@ -4,0 +5 @@\n+new'), pullFiles);
    expect(after).toMatchObject({ fits: true, suggestions: [{ line: 4, body: '```suggestion\nd\nnew\n```' }] });
    const top = suggestionsFromDiff(change('@@ -0,0 +1 @@\n+first'), pullFiles);
    expect(top).toMatchObject({ fits: true, suggestions: [{ line: 1, body: '```suggestion\nfirst\na\n```' }] });
  });

  it('a deletion is an empty suggestion', () => {
    const plan = suggestionsFromDiff(change('@@ -5 +4,0 @@\n-e'), pullFiles);
    expect(plan).toMatchObject({ fits: true, suggestions: [{ line: 5, body: '```suggestion\n```' }] });
  });

  it('does not fit when a hunk is outside the diff, a file is new or absent from the diff, or a newline is missing', () => {
    expect(suggestionsFromDiff(change('@@ -9 +9 @@\n-i\n+I'), pullFiles)).toEqual({
      fits: false,
      reason: "f.txt:9 is outside the pull request's diff",
    });
    expect(suggestionsFromDiff([{ path: 'n.txt', status: 'added', patch: '', headLines: [] }], pullFiles)).toEqual({
      fits: false,
      reason: 'n.txt is added',
    });
    expect(suggestionsFromDiff(change('@@ -1 +1 @@\n-a\n+A'), [])).toMatchObject({ fits: false });
    expect(suggestionsFromDiff(change('@@ -7 +7 @@\n-g\n\\ No newline at end of file\n+G\n'), pullFiles)).toMatchObject(
      { fits: false, reason: 'f.txt changes a missing final newline' },
    );
  });

  it('fences a suggestion longer than any backtick run in it', () => {
    expect(suggestionBlock(['```js', 'x'])).toBe('````suggestion\n```js\nx\n````');
  });
});
