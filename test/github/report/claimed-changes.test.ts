import { describe, expect, it } from 'vitest';
import { claimedFiles, succeededWrites, unseenChangesReason } from '../../../src/github/report/claimed-changes.ts';
import type { ProgressStep } from '../../../src/github/report/progress-types.ts';

const tool = (tool: string, target: string, state: 'done' | 'failed' | 'running' = 'done'): ProgressStep => ({
  id: `${tool}-${target}`,
  kind: 'tool',
  title: `${tool} ${target}`,
  tool,
  target,
  state,
});
const nothingThere = () => false;

describe('claimedFiles', () => {
  it.each([
    ['Created GREETING.md.', ['GREETING.md']],
    ['I created `GREETING.md` with a greeting.', ['GREETING.md']],
    ["I've updated src/login.ts and added tests/login.test.ts.", ['src/login.ts', 'tests/login.test.ts']],
    ['Done. I have written the file docs/guide.md for you.', ['docs/guide.md']],
    ['- Added `.env.example`\n- Updated README.md', ['.env.example', 'README.md']],
    ['`package.json` has been updated to pin the version.', ['package.json']],
  ])('finds the agent’s claims in %j', (text, files) => {
    expect(claimedFiles(text)).toEqual(files);
  });

  it.each([
    'The flaky test was added in commit 3f2a in tests/login.test.ts, which races the clock.',
    'test_login is flaky because the fixture in conftest.py shares a port.',
    'You could add a GREETING.md file with a short hello.',
    'Version 1.2.3 added this option.',
    'No changes were needed.',
  ])('finds none in an answer: %j', (text) => {
    expect(claimedFiles(text)).toEqual([]);
  });
});

describe('unseenChangesReason (a run that changed no file in the checkout)', () => {
  it('a write that succeeded elsewhere: names the write', () => {
    const steps = [tool('read_file', 'README.md'), tool('mcp__agentmux__write_file', 'GREETING.md')];
    expect(succeededWrites(steps)).toEqual(['mcp__agentmux__write_file GREETING.md']);
    expect(unseenChangesReason(steps, 'Done.', nothingThere)).toMatch(
      /^the agent's writes succeeded \(`mcp__agentmux__write_file GREETING.md`\) but the checkout has no change/,
    );
  });

  it('a claim of a file the checkout lacks (a sandbox refused without a trace): names the file', () => {
    expect(unseenChangesReason([], 'Created GREETING.md.', nothingThere)).toMatch(
      /^the agent said it wrote `GREETING.md`, but the checkout has no such file and no change/,
    );
  });

  it('a file it names that is there (an earlier turn’s), an answer, failed or read-only steps: no reason', () => {
    expect(unseenChangesReason([], 'I created GREETING.md in the previous turn.', () => true)).toBeUndefined();
    expect(unseenChangesReason([tool('Read', 'a.ts')], 'The bug is in a.ts.', nothingThere)).toBeUndefined();
    expect(unseenChangesReason([tool('Write', 'a.ts', 'failed')], 'It did not work.', nothingThere)).toBeUndefined();
  });
});
