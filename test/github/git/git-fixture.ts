import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

/** Git with no system or global configuration, so the machine's settings cannot change a test. */
export const isolatedEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

/** Runs git in `cwd` as a test fixture step (not the code under test). */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const result = await execa('git', args, { cwd, env: isolatedEnv, stdin: 'ignore' });
  return result.stdout;
}

/** Files to write (string) or delete (null), relative to the checkout. */
export type FileChanges = Record<string, string | null>;

export interface Fixture {
  dir: string;
  /** The bare repository playing GitHub. */
  origin: string;
  /** A clone of `origin` on `main`. */
  clone: string;
  /** Commits `files` in `cwd` as the fixture's author and returns the new commit. */
  commit(cwd: string, files: FileChanges, message?: string): Promise<string>;
  /** Writes (or deletes) files in `cwd` without committing. */
  write(cwd: string, files: FileChanges): Promise<void>;
  /** Makes a pull request: a commit on top of `from` (default `main`), published as `refs/pull/<number>/head` in origin. */
  pull(number: number, files: FileChanges, options?: { from?: string; branch?: string }): Promise<string>;
  cleanup(): Promise<void>;
}

export const author = ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.com'];

/** A bare origin with `main` holding `files`, and a clone of it. */
export async function createFixture(files: FileChanges = { 'README.md': '# demo\n' }): Promise<Fixture> {
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
  const dir = await mkdtemp(join(tmpdir(), 'agent-mux-git-'));
  const origin = join(dir, 'origin.git');
  const clone = join(dir, 'clone');
  const seed = join(dir, 'seed');
  await git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  await git(dir, 'init', '--quiet', '--initial-branch=main', seed);

  const write = async (cwd: string, changes: FileChanges) => {
    for (const [path, content] of Object.entries(changes)) {
      const full = join(cwd, path);
      if (content === null) {
        await rm(full, { recursive: true, force: true });
      } else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
  };
  const commit = async (cwd: string, changes: FileChanges, message = 'change') => {
    await write(cwd, changes);
    await git(cwd, 'add', '--all');
    await git(cwd, ...author, 'commit', '--quiet', '--allow-empty', '-m', message);
    return git(cwd, 'rev-parse', 'HEAD');
  };

  await commit(seed, files, 'initial');
  await git(seed, 'push', '--quiet', origin, 'HEAD:refs/heads/main');
  await git(dir, 'clone', '--quiet', origin, clone);

  let pulls = 0;
  const pull = async (number: number, changes: FileChanges, options: { from?: string; branch?: string } = {}) => {
    const work = join(dir, `pr-${number}-${pulls++}`);
    await git(dir, 'clone', '--quiet', origin, work);
    if (options.from) await git(work, 'checkout', '--quiet', '--detach', options.from);
    const sha = await commit(work, changes, `pull ${number}`);
    if (options.branch) await git(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${options.branch}`);
    // Forks and same-repository PRs alike: GitHub serves the head as refs/pull/<n>/head on the base repository.
    await git(work, 'push', '--quiet', origin, `${sha}:refs/heads/tmp-${number}`);
    await git(origin, 'update-ref', `refs/pull/${number}/head`, sha);
    await git(origin, 'update-ref', '-d', `refs/heads/tmp-${number}`);
    return sha;
  };

  return {
    dir,
    origin,
    clone,
    commit,
    write,
    pull,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
