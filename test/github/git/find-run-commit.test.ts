import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { findRunCommit, runEndTrailer, runTrailer } from '../../../src/github/git/find-run-commit.ts';
import { publishChanges } from '../../../src/github/git/publish-changes.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

const author = { name: 'agent-mux[bot]', email: '123+agent-mux[bot]@users.noreply.github.com' };
const BRANCH = 'agent-mux/1-fix';

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({ 'README.md': '# demo\n', 'src/app.ts': 'export const a = 1;\n' });
});
afterEach(async () => {
  await fixture.cleanup();
});

/** The first attempt: the agent's change committed with the run's trailer and pushed, as publishResult does. */
async function pushAttempt(message: string): Promise<string> {
  await fixture.write(fixture.clone, {
    'src/app.ts': 'export const a = 2;\n',
    'docs/new.md': 'new\n',
    'README.md': null,
  });
  const pushed = await publishChanges({ cwd: fixture.clone, branch: BRANCH, message, author });
  if (pushed.kind !== 'pushed') throw new Error('not pushed');
  return pushed.commitSha;
}

/** The retry's workspace: a fresh clone of the default branch, full or shallow as the app makes it. */
async function freshClone(name: string, shallow: boolean): Promise<string> {
  const dir = join(fixture.dir, name);
  await git(
    fixture.dir,
    'clone',
    '-q',
    ...(shallow ? ['--depth=1', `file://${fixture.origin}`] : [fixture.origin]),
    dir,
  );
  return dir;
}

describe('findRunCommit', () => {
  test.each([
    ['a full clone', false],
    ['a shallow clone', true],
  ])(
    "finds the run's commit at its branch's tip from %s, with what it changed, and leaves the checkout as it was",
    async (_, shallow) => {
      const sha = await pushAttempt(`agent-mux: fix\n\nRequested by @alice in #1.\n\n${runTrailer('run_abc')}`);
      const cwd = await freshClone('retry', shallow);
      const head = await git(cwd, 'rev-parse', 'HEAD');

      const found = await findRunCommit({ cwd, runId: 'run_abc', branches: ['agent-mux/1-fix-missing', BRANCH] });
      expect(found?.branch).toBe(BRANCH);
      expect(found?.commitSha).toBe(sha);
      expect(found?.files.map((f) => [f.path, f.status, f.additions, f.deletions]).sort()).toEqual([
        ['README.md', 'deleted', 0, 1],
        ['docs/new.md', 'added', 1, 0],
        ['src/app.ts', 'modified', 1, 1],
      ]);
      expect(await git(cwd, 'rev-parse', 'HEAD')).toBe(head);
      expect(await git(cwd, 'status', '--porcelain')).toBe('');
    },
  );

  test('tells work a spent budget left unfinished by its Agent-Mux-Run-End trailer (a retry concludes as that run did)', async () => {
    await pushAttempt(
      `agent-mux: fix\n\nRequested by @alice.\n\n${runTrailer('run_abc')}\n${runEndTrailer('budget_exceeded')}`,
    );
    const found = await findRunCommit({ cwd: await freshClone('retry', true), runId: 'run_abc', branches: [BRANCH] });
    expect(found).toMatchObject({ branch: BRANCH, unfinished: 'budget_exceeded' });
    await fixture.cleanup();
    fixture = await createFixture({ 'README.md': '# demo\n', 'src/app.ts': 'export const a = 1;\n' });
    await pushAttempt(`agent-mux: fix\n\n${runTrailer('run_abc')}`);
    const finished = await findRunCommit({
      cwd: await freshClone('again', false),
      runId: 'run_abc',
      branches: [BRANCH],
    });
    expect(finished?.branch).toBe(BRANCH);
    expect(finished).not.toHaveProperty('unfinished');
  });

  test("another run's commit, or a branch without the trailer, is not this run's", async () => {
    await pushAttempt(`agent-mux: fix\n\n${runTrailer('run_other')}`);
    const cwd = await freshClone('retry', false);
    expect(await findRunCommit({ cwd, runId: 'run_abc', branches: [BRANCH] })).toBeUndefined();
    expect(await findRunCommit({ cwd, runId: 'run_abc', branches: ['main'] })).toBeUndefined();
  });

  test('the run id in the body but not among the trailers does not count', async () => {
    await pushAttempt(`agent-mux: fix\n\n${runTrailer('run_abc')}\n\nA paragraph after it, so it is no trailer.`);
    const cwd = await freshClone('retry', false);
    expect(await findRunCommit({ cwd, runId: 'run_abc', branches: [BRANCH] })).toBeUndefined();
  });

  test('a commit the run pushed that is no longer the tip (someone pushed on top) is not taken', async () => {
    await pushAttempt(`agent-mux: fix\n\n${runTrailer('run_abc')}`);
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 3;\n' });
    await publishChanges({ cwd: fixture.clone, branch: BRANCH, message: 'a human follow-up', author });
    const cwd = await freshClone('retry', true);
    expect(await findRunCommit({ cwd, runId: 'run_abc', branches: [BRANCH] })).toBeUndefined();
  });
});
