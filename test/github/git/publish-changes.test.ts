import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { publishChanges } from '../../../src/github/git/publish-changes.ts';
import { PushRejectedError } from '../../../src/github/git/push-rejected-error.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

const author = { name: 'agent-mux[bot]', email: '123+agent-mux[bot]@users.noreply.github.com' };

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({ 'README.md': '# demo\n', 'src/app.ts': 'export const a = 1;\n' });
});
afterEach(async () => {
  await fixture.cleanup();
});

const publish = (overrides: Partial<Parameters<typeof publishChanges>[0]> = {}) =>
  publishChanges({ cwd: fixture.clone, branch: 'agent-mux/1-fix', message: 'Fix #1', author, ...overrides });

describe('publishChanges', () => {
  test('commits and pushes to a new branch with the given author and committer', async () => {
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n', 'docs/new file.md': 'hello\n' });
    const result = await publish();
    if (result.kind !== 'pushed') throw new Error(`expected a push, got ${result.kind}`);
    expect(result.created).toBe(true);
    expect(result.branch).toBe('agent-mux/1-fix');
    expect(result.files.map((file) => [file.path, file.status]).sort()).toEqual([
      ['docs/new file.md', 'added'],
      ['src/app.ts', 'modified'],
    ]);
    expect(await git(fixture.origin, 'rev-parse', 'refs/heads/agent-mux/1-fix')).toBe(result.commitSha);
    expect(await git(fixture.origin, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', result.commitSha)).toBe(
      `${author.name} <${author.email}>|${author.name} <${author.email}>|Fix #1`,
    );
    expect(await git(fixture.origin, 'show', `${result.commitSha}:docs/new file.md`)).toBe('hello');
    expect(await git(fixture.clone, 'status', '--porcelain')).toBe('');
  });

  test('pushing again to the branch fast-forwards it (created false)', async () => {
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
    await publish();
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 3;\n' });
    const result = await publish({ message: 'Second' });
    expect(result).toMatchObject({ kind: 'pushed', created: false });
  });

  test('keeps a message whose lines start with # (no comment stripping)', async () => {
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
    const message = '#12: fix the flaky test\n\n# not a comment\nBody.\n\n\n';
    const result = await publish({ message });
    if (result.kind !== 'pushed') throw new Error('not pushed');
    expect(await git(fixture.origin, 'log', '-1', '--format=%B', result.commitSha)).toBe(
      '#12: fix the flaky test\n\n# not a comment\nBody.\n',
    );
  });

  test('nothing changed → no_changes and no commit', async () => {
    const before = await git(fixture.clone, 'rev-parse', 'HEAD');
    await expect(publish()).resolves.toEqual({ kind: 'no_changes' });
    expect(await git(fixture.clone, 'rev-parse', 'HEAD')).toBe(before);
    await expect(
      git(fixture.origin, 'rev-parse', '--verify', '--quiet', 'refs/heads/agent-mux/1-fix'),
    ).rejects.toThrow();
  });

  test('only ignored paths changed → no_changes', async () => {
    await fixture.write(fixture.clone, { 'CLAUDE.md': 'restored\n', 'README.md': '# restored\n' });
    await expect(publish({ ignore: ['CLAUDE.md', 'README.md'] })).resolves.toEqual({ kind: 'no_changes' });
    expect(await git(fixture.clone, 'diff', '--cached', '--name-only')).toBe('');
  });

  test('a branch that moved on the remote → PushRejectedError, never forced, remote unchanged', async () => {
    const other = join(fixture.dir, 'other');
    await git(fixture.dir, 'clone', '--quiet', fixture.origin, other);
    const theirs = await fixture.commit(other, { 'src/app.ts': 'export const a = 99;\n' });
    await git(other, 'push', '--quiet', 'origin', 'HEAD:refs/heads/agent-mux/1-fix');

    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
    const error = await publish().catch((caught: unknown) => caught);
    expect(PushRejectedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'push_rejected', branch: 'agent-mux/1-fix' });
    expect((error as PushRejectedError).reason).toMatch(/fetch first|non-fast-forward/);
    expect(await git(fixture.origin, 'rev-parse', 'refs/heads/agent-mux/1-fix')).toBe(theirs);
  });

  test('a remote hook refusing the push → PushRejectedError with its reason', async () => {
    const hook = join(fixture.origin, 'hooks', 'pre-receive');
    await writeFile(hook, '#!/bin/sh\necho "protected" >&2\nexit 1\n');
    await chmod(hook, 0o755);
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
    const error = await publish().catch((caught: unknown) => caught);
    expect(PushRejectedError.isInstance(error)).toBe(true);
    expect((error as PushRejectedError).reason).toContain('remote rejected');
  });

  test('configuration files are left alone and local hooks are skipped', async () => {
    const home = await mkdtemp(join(tmpdir(), 'agent-mux-home-'));
    const globalConfig = join(home, 'gitconfig');
    await writeFile(globalConfig, '');
    const previous = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = globalConfig;
    try {
      const hook = join(fixture.clone, '.git', 'hooks', 'pre-commit');
      await writeFile(hook, '#!/bin/sh\nexit 1\n');
      await chmod(hook, 0o755);
      const localBefore = await readFile(join(fixture.clone, '.git', 'config'), 'utf8');
      await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
      await expect(publish()).resolves.toMatchObject({ kind: 'pushed' });
      expect(await readFile(globalConfig, 'utf8')).toBe('');
      expect(await readFile(join(fixture.clone, '.git', 'config'), 'utf8')).toBe(localBefore);
    } finally {
      process.env.GIT_CONFIG_GLOBAL = previous;
      await rm(home, { recursive: true, force: true });
    }
  });

  test('the token is never written to .git/config', async () => {
    const token = 'ghs_PublishTokenNeverStored';
    await fixture.write(fixture.clone, { 'src/app.ts': 'export const a = 2;\n' });
    await publish({ token });
    const config = await readFile(join(fixture.clone, '.git', 'config'), 'utf8');
    expect(config).not.toContain(token);
    expect(config).not.toContain(Buffer.from(`x-access-token:${token}`).toString('base64'));
  });
});
