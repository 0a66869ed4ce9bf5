import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import type { ToolResult } from '../../../../src/core/tools/tool-host.ts';

/**
 * The red team's attacks on the workspace tools, one table per class. Each row is one attack; a
 * row failing means that attack works again.
 */

const SECRET = 'outside-secret';
let base: string;
let workspace: string;
let outside: string;
let secretFile: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agent-mux-escape-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  secretFile = path.join(outside, 'secret.txt');
  await mkdir(path.join(workspace, 'src'), { recursive: true });
  await mkdir(path.join(workspace, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(workspace, '.git', 'config'), '[core]\n\tbare = false\n');
  await writeFile(path.join(workspace, 'src', 'a.ts'), 'a');
  await mkdir(outside);
  await writeFile(secretFile, SECRET);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function host() {
  return createToolHost({
    runId: 'run-1',
    workspacePath: workspace,
    tools: builtinTools(),
    policy: { default: 'allow' },
    emit: () => {},
    task: { prompt: 'p', repository: 'o/r' },
  });
}

function refused(result: ToolResult): string {
  expect(result.ok, `the tool accepted: ${JSON.stringify(result)}`).toBe(false);
  return result.ok ? '' : result.error;
}

async function outsideUntouched(): Promise<void> {
  expect(await readFile(secretFile, 'utf8')).toBe(SECRET);
  expect(await readdir(outside)).toEqual(['secret.txt']);
}

describe('hard links to files outside the workspace', () => {
  const attacks: [string, string, (name: string) => Record<string, unknown>][] = [
    ['read_file through a hard link', 'read_file', (name) => ({ path: name })],
    ['write_file through a hard link (overwrite outside)', 'write_file', (name) => ({ path: name, content: 'pwned' })],
    ['write_file through a hard link in a subdirectory', 'write_file', () => ({ path: 'src/hl', content: 'pwned' })],
  ];
  it.each(attacks)('%s is refused', async (_name, tool, input) => {
    await link(secretFile, path.join(workspace, 'hl'));
    await link(secretFile, path.join(workspace, 'src', 'hl'));
    const error = refused(await host().call(tool, input('hl')));
    expect(error).toMatch(/hard links/);
    expect(error).not.toContain(SECRET);
    await outsideUntouched();
  });
});

describe('symbolic links', () => {
  const attacks: [string, string, Record<string, unknown>][] = [
    ['read a file link to outside', 'read_file', { path: 'file-link' }],
    ['write a file link to outside', 'write_file', { path: 'file-link', content: 'pwned' }],
    ['read through a directory link', 'read_file', { path: 'dir-link/secret.txt' }],
    ['write through a directory link', 'write_file', { path: 'dir-link/new.txt', content: 'pwned' }],
    ['write a new tree under a directory link', 'write_file', { path: 'dir-link/a/b.txt', content: 'pwned' }],
    ['write through a dangling link (creates its target)', 'write_file', { path: 'dangling', content: 'pwned' }],
    ['list a directory link', 'list_files', { path: 'dir-link' }],
    ['read a nested link in a real directory', 'read_file', { path: 'src/nested/secret.txt' }],
    ['read the absolute path through a link', 'read_file', { path: '<ws>/dir-link/secret.txt' }],
  ];
  it.each(attacks)('%s is refused', async (_name, tool, input) => {
    await symlink(secretFile, path.join(workspace, 'file-link'));
    await symlink(outside, path.join(workspace, 'dir-link'));
    await symlink(outside, path.join(workspace, 'src', 'nested'));
    await symlink(path.join(outside, 'missing'), path.join(workspace, 'dangling'));
    const args = { ...input, path: String(input.path).replace('<ws>', workspace) };
    const error = refused(await host().call(tool, args));
    expect(error).toMatch(/symbolic link/);
    await outsideUntouched();
  });
});

describe('.git is off limits', () => {
  const attacks: [string, string, Record<string, unknown>][] = [
    ['write .git/config', 'write_file', { path: '.git/config', content: '[core]\n\tfsmonitor = touch /tmp/x\n' }],
    ['write .git/hooks/pre-commit', 'write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }],
    ['write .git/info/attributes', 'write_file', { path: '.git/info/attributes', content: '* filter=x\n' }],
    ['write .GIT/config (case)', 'write_file', { path: '.GIT/config', content: 'x' }],
    ['write ./.git/config', 'write_file', { path: './.git/config', content: 'x' }],
    ['write src/../.git/config', 'write_file', { path: 'src/../.git/config', content: 'x' }],
    ['write the absolute .git/config', 'write_file', { path: '<ws>/.git/config', content: 'x' }],
    ['write .git./config (NTFS trailing dot)', 'write_file', { path: '.git./config', content: 'x' }],
    ['write .g\u200cit/config (HFS+ ignorable)', 'write_file', { path: '.g\u200cit/config', content: 'x' }],
    ['write a nested sub/.git/config', 'write_file', { path: 'src/.git/config', content: 'x' }],
    ['read .git/config', 'read_file', { path: '.git/config' }],
    ['list .git', 'list_files', { path: '.git' }],
    ['list .git/hooks', 'list_files', { path: '.git/hooks' }],
  ];
  it.each(attacks)('%s is refused', async (_name, tool, input) => {
    const args = { ...input, path: String(input.path).replace('<ws>', workspace) };
    const error = refused(await host().call(tool, args));
    expect(error).toMatch(/inside \.git/);
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(await readdir(path.join(workspace, '.git'))).toEqual(['config', 'hooks']);
  });

  it('a symbolic link into .git (src/cfg -> ../.git/config) is refused for write and read', async () => {
    await symlink('../.git/config', path.join(workspace, 'src', 'cfg'));
    await symlink('.git', path.join(workspace, 'gitdir'));
    for (const [tool, input] of [
      ['write_file', { path: 'src/cfg', content: '[core]\n\tfsmonitor = evil\n' }],
      ['read_file', { path: 'src/cfg' }],
      ['write_file', { path: 'gitdir/config', content: 'x' }],
    ] as const) {
      expect(refused(await host().call(tool, input))).toMatch(/symbolic link/);
    }
    expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
  });
});

describe('other file types', () => {
  it('a FIFO is refused at once, not read (no hang)', async () => {
    execFileSync('mkfifo', [path.join(workspace, 'pipe')]);
    expect(refused(await host().call('read_file', { path: 'pipe' }))).toMatch(/not a regular file/);
    expect(refused(await host().call('write_file', { path: 'pipe', content: 'x' }))).toMatch(/not a regular file/);
  });

  it('ordinary reads and writes still work, directories created as needed', async () => {
    const h = host();
    const written = await h.call('write_file', { path: './new/dir/../file.txt', content: 'ok' });
    expect(written).toMatchObject({ ok: true, value: { path: 'new/file.txt', bytes: 2 } });
    expect(await h.call('read_file', { path: 'new/file.txt' })).toMatchObject({ ok: true, value: { content: 'ok' } });
    expect(await h.call('write_file', { path: 'src/a.ts', content: 'b' })).toMatchObject({ ok: true });
    expect(await readFile(path.join(workspace, 'src', 'a.ts'), 'utf8')).toBe('b');
  });
});

describe('a directory swapped for a symbolic link while the tools read', () => {
  it('no read ever returns the outside file (20,000 reads or 8 s)', async () => {
    const real = path.join(workspace, 'swap');
    const parked = path.join(workspace, 'swap-real');
    const evil = path.join(workspace, 'swap-link');
    await mkdir(real);
    await writeFile(path.join(real, 'secret.txt'), 'inside');
    await symlink(outside, evil);
    let stop = false;
    // Swaps `swap` between the real directory and a link to outside as fast as the loop runs.
    const swapper = (async () => {
      while (!stop) {
        await rename(real, parked);
        await rename(evil, real);
        await new Promise<void>((resolve) => setImmediate(resolve));
        await rename(real, evil);
        await rename(parked, real);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    const h = host();
    let escapes = 0;
    let reads = 0;
    let inside = 0;
    const deadline = Date.now() + 8000;
    try {
      while (reads < 20_000 && Date.now() < deadline) {
        const batch = await Promise.all(
          Array.from({ length: 20 }, () => h.call('read_file', { path: 'swap/secret.txt' })),
        );
        reads += batch.length;
        for (const result of batch) {
          if (result.ok && JSON.stringify(result.value).includes(SECRET)) escapes++;
          if (result.ok) inside++;
        }
      }
    } finally {
      stop = true;
      await swapper;
    }
    expect(escapes).toBe(0);
    expect(inside).toBeGreaterThan(0); // the race was real: some reads found the directory in place
  }, 20_000);
});
