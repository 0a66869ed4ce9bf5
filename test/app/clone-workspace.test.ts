import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cloneUrlOf, cloneWorkspace, removeWorkspace } from '../../src/app/clone-workspace.ts';
import { directorySize } from '../../src/app/directory-size.ts';
import { openRepository, pinRepository } from '../../src/github/git/open-repository.ts';

const TOKEN = 'ghs_cloneTokenForTests0123456789abcdef';
let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function bareRepo(): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'agent-mux-clone-'));
  const bare = join(root, 'git', 'octo', 'demo.git');
  await mkdir(join(root, 'git', 'octo'), { recursive: true });
  const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
  await execa('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const scratch = join(root, 'scratch');
  await execa('git', ['clone', '-q', bare, scratch]);
  await writeFile(join(scratch, 'README.md'), 'hello\n');
  await execa('git', ['add', '.'], { cwd: scratch });
  await execa('git', ['commit', '-q', '-m', 'init'], { cwd: scratch, env });
  await execa('git', ['push', '-q', 'origin', 'HEAD:main'], { cwd: scratch });
  return join(root, 'git');
}

describe('cloneWorkspace', () => {
  it('clones <base>/<owner>/<repo>.git into <workDir>/<runId>.<attempt> without writing the token anywhere', async () => {
    const base = await bareRepo();
    const workDir = join(root!, 'work');
    const dir = await cloneWorkspace({
      workDir,
      runId: 'run_1',
      attempt: 0,
      repo: { owner: 'octo', repo: 'demo' },
      gitBaseUrl: base,
      token: TOKEN,
    });
    expect(dir).toBe(join(workDir, 'run_1.0'));
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('hello\n');
    const config = await readFile(join(dir, '.git', 'config'), 'utf8');
    expect(config).toContain(`url = ${base}/octo/demo.git`);
    expect(config).not.toContain(TOKEN);
    expect(config).not.toMatch(/extraheader/i);
    expect(await directorySize(workDir)).toBeGreaterThan(0);
  });

  it('a retry that clones again into the same path pins the new checkout (issue 34: its predecessor’s pin made every retry fail)', async () => {
    const base = await bareRepo();
    const workDir = join(root!, 'work');
    const options = {
      workDir,
      runId: 'run_retry',
      attempt: 0,
      repo: { owner: 'octo', repo: 'demo' },
      gitBaseUrl: base,
      token: TOKEN,
    };
    const first = await cloneWorkspace(options);
    await pinRepository(first, 'origin');
    // The first attempt died; the retry's fresh clone has another .git at the same path (held open
    // here, so that the file system cannot hand its inode to the new one).
    const held = await open(join(first, '.git'), 'r');
    const again = await cloneWorkspace(options).finally(() => held.close());
    expect(again).toBe(first);
    const pinned = await pinRepository(again, 'origin');
    expect(pinned.remoteUrl).toBe(`${base}/octo/demo.git`);
    await expect(openRepository(again)).resolves.toMatchObject({ root: await realpath(again) });
    // Tampering within one attempt is still refused.
    await rename(join(again, '.git'), join(root!, 'moved-git'));
    await execa('git', ['init', '-q', again]);
    await expect(openRepository(again)).rejects.toThrow(/replaced since the workspace was prepared/);
  });

  it('the attempt that took a run over clones beside the attempt that lost its lease, never over it (CI: the first attempt failed on ".git was replaced", the second on a removed .git/config)', async () => {
    const base = await bareRepo();
    const workDir = join(root!, 'work');
    const options = {
      workDir,
      runId: 'run_taken',
      repo: { owner: 'octo', repo: 'demo' },
      gitBaseUrl: base,
      token: TOKEN,
    };
    const first = await cloneWorkspace({ ...options, attempt: 0 });
    await pinRepository(first, 'origin');
    const second = await cloneWorkspace({ ...options, attempt: 1 });
    expect(second).not.toBe(first);
    // The first attempt, still running, publishes from its own checkout; its clean-up leaves the second's alone.
    await expect(openRepository(first)).resolves.toMatchObject({ root: await realpath(first) });
    await removeWorkspace(first);
    await expect(openRepository(second)).resolves.toMatchObject({ root: await realpath(second) });
  });

  it('a failed clone leaves no directory and names the repository, never the token', async () => {
    const base = await bareRepo();
    const workDir = join(root!, 'work');
    const error = await cloneWorkspace({
      workDir,
      runId: 'run_2',
      attempt: 0,
      repo: { owner: 'octo', repo: 'missing' },
      gitBaseUrl: base,
      token: TOKEN,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).not.toContain(TOKEN);
    expect(await directorySize(join(workDir, 'run_2.0'))).toBe(0);
  });

  it('the clone URL of a server and of a local directory', () => {
    expect(cloneUrlOf('https://github.com/', { owner: 'o', repo: 'r' })).toBe('https://github.com/o/r.git');
    expect(cloneUrlOf('/srv/git', { owner: 'o', repo: 'r' })).toBe('/srv/git/o/r.git');
  });
});

describe('directorySize', () => {
  it('sums the files’ allocated blocks, 0 for a missing directory, symbolic links not followed', async () => {
    root = await mkdtemp(join(tmpdir(), 'agent-mux-size-'));
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await writeFile(join(root, 'a', 'one'), 'x'.repeat(100));
    await writeFile(join(root, 'a', 'b', 'two'), 'y'.repeat(50));
    await symlink(join(root, 'a', 'one'), join(root, 'a', 'link'));
    // Two small files take a block each (4 KiB on most file systems); the link is not counted.
    const bytes = await directorySize(join(root, 'a'));
    expect(bytes % 512).toBe(0);
    expect(bytes).toBeGreaterThanOrEqual(1024);
    expect(bytes).toBeLessThanOrEqual(2 * 64 * 1024);
    expect(await directorySize(join(root, 'missing'))).toBe(0);
  });
});

describe('directorySize (issue 32.8)', () => {
  it('counts the blocks a file takes, not its apparent size: a sparse 20 GB file takes almost none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-size-'));
    try {
      execFileSync('truncate', ['-s', '20G', join(dir, 'sparse')]);
      writeFileSync(join(dir, 'real'), Buffer.alloc(1024 * 1024, 1));
      const bytes = await directorySize(dir);
      expect(bytes).toBeGreaterThanOrEqual(1024 * 1024);
      expect(bytes).toBeLessThan(2 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
