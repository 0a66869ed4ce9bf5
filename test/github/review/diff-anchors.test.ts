import { describe, expect, it } from 'vitest';
import { DiffAnchors, rightSideLines } from '../../../src/github/review/diff-anchors.ts';

// As GitHub's `GET /pulls/{n}/files` gives it: two hunks, a removed line, an added one.
const patch = [
  '@@ -1,4 +1,5 @@',
  ' import x from "x";',
  '-const a = 1;',
  '+const a = 2;',
  '+const b = 3;',
  ' ',
  ' export {};',
  '@@ -20,3 +21,3 @@ function f() {',
  '   one();',
  '-  two();',
  '+  three();',
  '\\ No newline at end of file',
].join('\n');

describe('DiffAnchors', () => {
  it('takes the new side’s added and context lines of each hunk', () => {
    expect([...rightSideLines(patch)]).toEqual([1, 2, 3, 4, 5, 21, 22]);
  });

  it('covers a range only when every line of it is on the diff, and never a removed or binary file', () => {
    const anchors = DiffAnchors.fromFiles([
      { filename: 'a.ts', patch },
      { filename: 'logo.png' },
      { filename: 'old.ts', status: 'removed', patch: '@@ -1 +0,0 @@\n-x' },
    ]);
    expect(anchors.covers('a.ts', 2, 3)).toBe(true);
    expect(anchors.covers('a.ts', 5, 21)).toBe(false);
    expect(anchors.covers('a.ts', 23, 23)).toBe(false);
    expect(anchors.touches('logo.png')).toBe(true);
    expect(anchors.covers('logo.png', 1, 1)).toBe(false);
    expect(anchors.touches('old.ts')).toBe(false);
    expect(anchors.covers('elsewhere.ts', 1, 1)).toBe(false);
  });
});
