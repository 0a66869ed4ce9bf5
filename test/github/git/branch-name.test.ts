import { execa } from 'execa';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { branchName, maxSlugLength, slugify } from '../../../src/github/git/branch-name.ts';
import { BranchNameError } from '../../../src/github/git/branch-name-error.ts';
import { isValidBranchName } from '../../../src/github/git/is-valid-branch-name.ts';

/** What real git says about a branch name. */
async function gitAccepts(name: string): Promise<boolean> {
  const result = await execa('git', ['check-ref-format', '--branch', name], { reject: false, stdin: 'ignore' });
  return result.exitCode === 0;
}

describe('branchName', () => {
  test.each([
    ['Fix the flaky test', 12, 'agent-mux/12-fix-the-flaky-test'],
    ['  Fix: the *flaky* test!!  ', 12, 'agent-mux/12-fix-the-flaky-test'],
    ['Crème brûlée über Straße', 3, 'agent-mux/3-creme-brulee-uber-strasse'],
    ['Łódź Ærøskøbing', 4, 'agent-mux/4-lodz-aeroskobing'],
    ['修复测试', 7, 'agent-mux/7'],
    ['', 7, 'agent-mux/7'],
    ['...', 8, 'agent-mux/8'],
    ['v1.2.lock', 9, 'agent-mux/9-v1-2-lock'],
    ['@{-1} ~^:?*[\\ refs//HEAD', 10, 'agent-mux/10-1-refs-head'],
    ['Ｆｕｌｌｗｉｄｔｈ ＡＢＣ', 11, 'agent-mux/11-fullwidth-abc'],
  ])('%j → %s', (title, issue, expected) => {
    expect(branchName('agent-mux', issue, title)).toBe(expected);
  });

  test('keeps the slug at most maxSlugLength characters, cut between words', () => {
    const name = branchName('agent-mux', 1, 'word '.repeat(30));
    const slug = name.slice('agent-mux/1-'.length);
    expect(slug.length).toBeLessThanOrEqual(maxSlugLength);
    expect(slug).toMatch(/^word(-word)*$/);
  });

  test('cuts a single over-long word', () => {
    expect(slugify('a'.repeat(100))).toBe('a'.repeat(maxSlugLength));
  });

  test.each([
    ['agent-mux/', 'agent-mux/5-x'],
    ['bots/agent', 'bots/agent/5-x'],
    ['', '5-x'],
  ])('prefix %j', (prefix, expected) => {
    expect(branchName(prefix, 5, 'x')).toBe(expected);
  });

  test.each(['.hidden', 'a..b', 'x.lock', 'has space', '-dash', 'a@{b'])('an invalid prefix %j throws', (prefix) => {
    expect(() => branchName(prefix, 5, 'x')).toThrow(BranchNameError);
    try {
      branchName(prefix, 5, 'x');
    } catch (error) {
      expect(BranchNameError.isInstance(error)).toBe(true);
    }
  });

  test('any unicode title makes a ref git accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 120 }), fc.nat(1_000_000), async (title, issue) => {
        const name = branchName('agent-mux', issue, title);
        expect(name).toMatch(/^agent-mux\/\d+(-[a-z0-9]+(-[a-z0-9]+)*)?$/);
        expect(name.length).toBeLessThanOrEqual('agent-mux/1000000-'.length + maxSlugLength);
        expect(await gitAccepts(name)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('isValidBranchName', () => {
  test.each([
    ['main', true],
    ['agent-mux/12-fix', true],
    ['@', true],
    ['a@b', true],
    ['é', true],
    ['HEAD', false],
    ['', false],
    ['-x', false],
    ['a..b', false],
    ['a.', false],
    ['a/', false],
    ['/a', false],
    ['a//b', false],
    ['.a', false],
    ['a/.b', false],
    ['x.lock', false],
    ['x.lock/y', false],
    ['a@{b', false],
    ['a b', false],
    ['a\tb', false],
    ['a~1', false],
    ['a^', false],
    ['a:b', false],
    ['a?', false],
    ['a*', false],
    ['a[b', false],
    ['a\\b', false],
    ['a\u007fb', false],
  ])('%j → %s', (name, valid) => {
    expect(isValidBranchName(name)).toBe(valid);
  });

  test('agrees with git check-ref-format --branch', async () => {
    const unit = fc.constantFrom('a', 'b', '.', '/', '-', '@', '{', '~', ' ', 'l', 'o', 'c', 'k', 'é', '\\', '*', 'H');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 12 }), async (name) => {
        expect(isValidBranchName(name)).toBe(await gitAccepts(name));
      }),
      { numRuns: 300 },
    );
  });
});
