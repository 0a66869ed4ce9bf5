import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EventDraft, parseAgentEvent } from '../../../src/core/events/index.ts';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import type { ToolResult } from '../../../src/core/tools/tool-host.ts';

let base: string;
let workspace: string;
let outside: string;
let events: EventDraft[];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agent-mux-tools-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(workspace, 'src', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(workspace, 'README.md'), 'hello');
  await writeFile(path.join(workspace, 'src', 'a.ts'), 'export {};\n');
  await writeFile(path.join(workspace, 'src', 'deep', 'b.ts'), 'b');
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  events = [];
});

afterEach(async () => {
  // Every draft the tools emit is a valid event once the core stamps it.
  for (const draft of events) parseAgentEvent({ ...draft, runId: 'run-1', agent: 'test', timestamp: 1 });
  await rm(base, { recursive: true, force: true });
});

function host(options: { maxReadBytes?: number; maxListEntries?: number } = {}) {
  return createToolHost({
    runId: 'run-1',
    workspacePath: workspace,
    tools: builtinTools(options),
    policy: { default: 'allow' },
    emit: (draft) => events.push(draft),
    task: { prompt: 'fix the typo', repository: 'octo/repo', issue: { number: 7 } },
  });
}

function value(result: ToolResult): unknown {
  if (!result.ok) throw new Error(`expected success, got: ${result.error}`);
  return result.value;
}

function error(result: ToolResult): string {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

describe('read_task, comment, report_progress', () => {
  it('returns the task the front end gave', async () => {
    expect(value(await host().call('read_task', {}))).toEqual({
      prompt: 'fix the typo',
      repository: 'octo/repo',
      issue: { number: 7 },
    });
    expect(value(await host().call('read_task', undefined))).toMatchObject({ prompt: 'fix the typo' });
  });

  it('emits comment and progress drafts', async () => {
    const h = host();
    value(await h.call('comment', { text: 'Which branch?', mentions: ['@octocat'] }));
    value(await h.call('comment', { text: 'FYI' }));
    value(await h.call('report_progress', { summary: 'found it', beliefs: ['typo in README'] }));
    expect(events).toEqual([
      { type: 'comment', text: 'Which branch?', mentions: ['@octocat'] },
      { type: 'comment', text: 'FYI', mentions: [] },
      { type: 'progress', summary: 'found it', beliefs: ['typo in README'] },
    ]);
    expect(error(await h.call('comment', { text: '' }))).toMatch(/^invalid input for comment: text: /);
  });
});

describe('mark_complete / mark_failed', () => {
  it('records the first outcome on the host and refuses a second', async () => {
    const h = host();
    expect(h.outcome).toBeUndefined();
    value(await h.call('mark_complete', { output: { pr: 12 } }));
    expect(h.outcome).toEqual({ status: 'completed', output: { pr: 12 } });
    expect(error(await h.call('mark_failed', { reason: 'changed my mind' }))).toBe(
      "the run's outcome is already recorded as completed",
    );
    expect(h.outcome).toEqual({ status: 'completed', output: { pr: 12 } });
  });

  it('records a failure', async () => {
    const h = host();
    value(await h.call('mark_failed', { reason: 'budget_exceeded', details: 'ran out' }));
    expect(h.outcome).toEqual({ status: 'failed', reason: 'budget_exceeded', details: 'ran out' });
  });
});

describe('read_file', () => {
  it('reads a file by relative or absolute path inside the workspace', async () => {
    expect(value(await host().call('read_file', { path: 'src/a.ts' }))).toEqual({
      path: 'src/a.ts',
      size: 11,
      content: 'export {};\n',
      truncated: false,
    });
    expect(value(await host().call('read_file', { path: path.join(workspace, 'README.md') }))).toMatchObject({
      path: 'README.md',
      content: 'hello',
    });
    expect(value(await host().call('read_file', { path: 'src/../README.md' }))).toMatchObject({ content: 'hello' });
  });

  it('refuses ../ and absolute paths outside the workspace', async () => {
    expect(error(await host().call('read_file', { path: '../outside/secret.txt' }))).toBe(
      'path "../outside/secret.txt" is outside the workspace',
    );
    expect(error(await host().call('read_file', { path: 'src/../../outside/secret.txt' }))).toMatch(
      /is outside the workspace$/,
    );
    const absolute = path.join(outside, 'secret.txt');
    expect(error(await host().call('read_file', { path: absolute }))).toBe(
      `path "${absolute}" is outside the workspace`,
    );
  });

  it('refuses every symbolic link, inside or outside (never followed)', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'leak.txt'));
    await symlink(outside, path.join(workspace, 'out'));
    await symlink(path.join(workspace, 'README.md'), path.join(workspace, 'readme-link'));
    const viaLink = /goes through a symbolic link, which the workspace tools never follow$/;
    expect(error(await host().call('read_file', { path: 'leak.txt' }))).toMatch(viaLink);
    expect(error(await host().call('read_file', { path: 'out/secret.txt' }))).toMatch(viaLink);
    expect(error(await host().call('read_file', { path: 'readme-link' }))).toMatch(viaLink);
  });

  it('caps what it returns and says so', async () => {
    await writeFile(path.join(workspace, 'big.txt'), 'x'.repeat(2500));
    const first = value(await host({ maxReadBytes: 1024 }).call('read_file', { path: 'big.txt' }));
    expect(first).toMatchObject({ size: 2500, truncated: true });
    expect((first as { content: string }).content).toHaveLength(1024);
    expect((first as { notice: string }).notice).toBe(
      'truncated: returned bytes 0-1024 of 2500 (read cap 1 KiB); read again with offset 1024 for more',
    );
    const last = value(await host({ maxReadBytes: 1024 }).call('read_file', { path: 'big.txt', offset: 2048 }));
    expect(last).toMatchObject({ truncated: false });
    expect((last as { content: string }).content).toHaveLength(452);
  });

  it('defaults to a 1 MiB cap', async () => {
    await writeFile(path.join(workspace, 'huge.txt'), Buffer.alloc(1024 * 1024 + 10, 'a'));
    const result = value(await host().call('read_file', { path: 'huge.txt' })) as { content: string; notice: string };
    expect(result.content).toHaveLength(1024 * 1024);
    expect(result.notice).toContain('read cap 1 MiB');
  });

  it('explains missing files and directories', async () => {
    expect(error(await host().call('read_file', { path: 'nope.txt' }))).toBe('cannot read "nope.txt": no such file');
    expect(error(await host().call('read_file', { path: 'src' }))).toMatch(/it is a directory/);
  });
});

describe('write_file', () => {
  it('writes, creates parent directories and emits file_output', async () => {
    expect(value(await host().call('write_file', { path: 'new/dir/c.ts', content: 'c' }))).toEqual({
      path: 'new/dir/c.ts',
      bytes: 1,
    });
    expect(await readFile(path.join(workspace, 'new', 'dir', 'c.ts'), 'utf8')).toBe('c');
    expect(events).toEqual([
      { type: 'file_output', fileName: 'c.ts', path: path.join(workspace, 'new', 'dir', 'c.ts') },
    ]);
  });

  it('refuses ../, absolute paths and symlinked directories outside, and writes nothing there', async () => {
    await symlink(outside, path.join(workspace, 'out'));
    await symlink(path.join(outside, 'missing-dir'), path.join(workspace, 'dangling'));
    expect(error(await host().call('write_file', { path: '../outside/x.txt', content: 'x' }))).toMatch(
      /is outside the workspace$/,
    );
    expect(error(await host().call('write_file', { path: path.join(outside, 'x.txt'), content: 'x' }))).toMatch(
      /is outside the workspace$/,
    );
    const viaLink = /goes through a symbolic link, which the workspace tools never follow$/;
    expect(error(await host().call('write_file', { path: 'out/new/x.txt', content: 'x' }))).toMatch(viaLink);
    expect(error(await host().call('write_file', { path: 'dangling', content: 'x' }))).toMatch(viaLink);
    expect(error(await host().call('write_file', { path: 'dangling/x.txt', content: 'x' }))).toMatch(viaLink);
    expect(error(await host().call('write_file', { path: 'src', content: 'x' }))).toMatch(/it is a directory/);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(events).toEqual([]);
  });
});

describe('list_files', () => {
  it('lists one level by default, sorted', async () => {
    expect(value(await host().call('list_files', {}))).toEqual({
      path: '.',
      entries: [
        { path: 'README.md', type: 'file' },
        { path: 'src', type: 'directory' },
      ],
      truncated: false,
    });
  });

  it('lists recursively without entering symlinks or .git', async () => {
    await symlink(outside, path.join(workspace, 'src', 'out'));
    await mkdir(path.join(workspace, '.git'));
    await writeFile(path.join(workspace, '.git', 'HEAD'), 'ref');
    const result = value(await host().call('list_files', { path: 'src', recursive: true }));
    expect(result).toEqual({
      path: 'src',
      entries: [
        { path: 'src/a.ts', type: 'file' },
        { path: 'src/deep', type: 'directory' },
        { path: 'src/deep/b.ts', type: 'file' },
        { path: 'src/out', type: 'symlink' },
      ],
      truncated: false,
    });
    const all = value(await host().call('list_files', { recursive: true })) as { entries: { path: string }[] };
    expect(all.entries.map((e) => e.path)).toContain('.git');
    expect(all.entries.map((e) => e.path)).not.toContain('.git/HEAD');
  });

  it('caps the entries and says so', async () => {
    const result = value(await host({ maxListEntries: 2 }).call('list_files', { recursive: true }));
    expect(result).toMatchObject({ truncated: true, notice: 'truncated: showing the first 2 entries' });
    expect((result as { entries: unknown[] }).entries).toHaveLength(2);
  });

  it('refuses directories outside the workspace', async () => {
    await symlink(outside, path.join(workspace, 'out'));
    expect(error(await host().call('list_files', { path: '..' }))).toBe('path ".." is outside the workspace');
    expect(error(await host().call('list_files', { path: 'out' }))).toMatch(/goes through a symbolic link/);
    expect(error(await host().call('list_files', { path: 'README.md' }))).toBe(
      'cannot list "README.md": not a directory',
    );
  });
});

describe('a workspace given through a symlink', () => {
  it('accepts absolute paths under either spelling', async () => {
    const alias = path.join(base, 'alias');
    await symlink(workspace, alias);
    const h = createToolHost({
      runId: 'r',
      workspacePath: alias,
      tools: builtinTools(),
      policy: { default: 'allow' },
      emit: () => {},
      task: { prompt: '' },
    });
    expect(value(await h.call('read_file', { path: path.join(alias, 'README.md') }))).toMatchObject({
      content: 'hello',
    });
    expect(value(await h.call('read_file', { path: path.join(workspace, 'README.md') }))).toMatchObject({
      content: 'hello',
    });
  });
});
