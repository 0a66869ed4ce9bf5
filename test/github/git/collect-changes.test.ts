import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { collectChanges } from '../../../src/github/git/collect-changes.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({
    'README.md': '# demo\n',
    'src/app.ts': 'one\ntwo\nthree\nfour\nfive\n',
    'src/old-name.ts': 'export const value = 1;\nexport const other = 2;\nexport const third = 3;\n',
    'delete-me.txt': 'bye\n',
    '.gitignore': 'build/\n',
  });
});
afterEach(async () => {
  await fixture.cleanup();
});

const byPath = <T extends { path: string }>(files: T[]) => [...files].sort((a, b) => a.path.localeCompare(b.path));

describe('collectChanges', () => {
  test('a same-size edit right after the checkout is seen', async () => {
    for (let i = 0; i < 5; i++) {
      const fresh = await createFixture({ 'README.md': 'This projcet.\n' });
      try {
        await fresh.write(fresh.clone, { 'README.md': 'This project.\n' });
        const files = await collectChanges(fresh.clone);
        expect(files.map((f) => f.path)).toEqual(['README.md']);
      } finally {
        await fresh.cleanup();
      }
    }
  });

  test('nothing changed → empty', async () => {
    await expect(collectChanges(fixture.clone)).resolves.toEqual([]);
  });

  test('added, modified, deleted and renamed files with line counts and first lines', async () => {
    const clone = fixture.clone;
    await fixture.write(clone, {
      'src/app.ts': 'one\ntwo\nTHREE\nfour\nfive\nsix\n',
      'delete-me.txt': null,
      'src/old-name.ts': null,
      'src/new-name.ts': 'export const value = 1;\nexport const other = 2;\nexport const third = 3;\n',
      'notes/new.md': 'a\nb\n',
      'build/out.js': 'ignored\n',
    });
    const files = await collectChanges(clone);
    expect(byPath(files)).toEqual([
      { path: 'delete-me.txt', status: 'deleted', firstLine: undefined, additions: 0, deletions: 1 },
      { path: 'notes/new.md', status: 'added', firstLine: 1, additions: 2, deletions: 0 },
      { path: 'src/app.ts', status: 'modified', firstLine: 3, additions: 2, deletions: 1 },
      {
        path: 'src/new-name.ts',
        status: 'renamed',
        previousPath: 'src/old-name.ts',
        firstLine: undefined,
        additions: 0,
        deletions: 0,
      },
    ]);
  });

  test('a pure deletion inside a file points at the line before it', async () => {
    await fixture.write(fixture.clone, { 'src/app.ts': 'one\ntwo\nfour\nfive\n' });
    const [file] = await collectChanges(fixture.clone);
    expect(file).toEqual({ path: 'src/app.ts', status: 'modified', firstLine: 2, additions: 0, deletions: 1 });
  });

  test('odd file names come back exactly', async () => {
    const names = [
      'with space.txt',
      'new\nline.txt',
      'tab\tname.txt',
      'quote"and\\slash.txt',
      'ünïcødé/文件.md',
      '-dash.txt',
    ];
    await fixture.write(fixture.clone, Object.fromEntries(names.map((name) => [name, 'x\n'])));
    const files = await collectChanges(fixture.clone);
    expect(files.map((file) => file.path).sort()).toEqual([...names].sort());
    for (const file of files) expect(file).toMatchObject({ status: 'added', firstLine: 1, additions: 1 });
  });

  test('a file whose content looks like a diff header does not confuse first lines', async () => {
    await fixture.write(fixture.clone, {
      'a.patch': 'diff --git a/x b/x\n@@ -1 +99 @@\n',
      'src/app.ts': 'one\ntwo\nthree\nfour\nFIVE\n',
    });
    const files = byPath(await collectChanges(fixture.clone));
    expect(files.map((file) => [file.path, file.firstLine])).toEqual([
      ['a.patch', 1],
      ['src/app.ts', 5],
    ]);
  });

  test('binary files have no first line and no counts', async () => {
    await writeFile(join(fixture.clone, 'image.bin'), Buffer.from([0, 1, 2, 0, 255]));
    const [file] = await collectChanges(fixture.clone);
    expect(file).toEqual({ path: 'image.bin', status: 'added', firstLine: undefined, additions: 0, deletions: 0 });
  });

  test('symlinks are changes too', async () => {
    await symlink('README.md', join(fixture.clone, 'link'));
    const files = await collectChanges(fixture.clone);
    expect(files).toEqual([{ path: 'link', status: 'added', firstLine: 1, additions: 1, deletions: 0 }]);
  });

  test('ignored paths are left out, and the real index is untouched', async () => {
    await fixture.write(fixture.clone, { 'CLAUDE.md': 'planted\n', 'README.md': '# changed\n', 'src/x.ts': 'x\n' });
    const files = await collectChanges(fixture.clone, { ignore: ['CLAUDE.md', 'README.md'] });
    expect(files.map((file) => file.path)).toEqual(['src/x.ts']);
    expect(await git(fixture.clone, 'diff', '--cached', '--name-only')).toBe('');
    expect(await git(fixture.clone, 'status', '--porcelain')).toContain('?? src/');
  });

  test('works from a subdirectory, with paths relative to the top', async () => {
    await fixture.write(fixture.clone, { 'README.md': '# changed\n' });
    const files = await collectChanges(join(fixture.clone, 'src'));
    expect(files.map((file) => file.path)).toEqual(['README.md']);
    expect(await readFile(join(fixture.clone, 'README.md'), 'utf8')).toBe('# changed\n');
  });
});
