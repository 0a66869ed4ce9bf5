import { lstat, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { type ConfigEntry, lastConfigValue } from './config-file.ts';
import { GitDirTamperedError } from './git-dir-tampered-error.ts';
import { isLocalRemote } from './hardened-git.ts';
import { removePersistedCredentials } from './remove-persisted-credentials.ts';
import { sanitizeGitConfig } from './sanitize-git-config.ts';

/** A checkout agent-mux's git may run in. */
export interface Repository {
  /** The top of the work tree (real path). */
  root: string;
  /** Its git directory (real path). */
  gitDir: string;
  /** The directory holding its objects, refs and configuration: `gitDir`, or a linked worktree's main one. */
  commonDir: string;
  /** The configuration left in `<commonDir>/config` once sanitized (what `git config --list` prints). */
  config: ConfigEntry[];
}

interface Pin {
  /** `dev:ino` of `<root>/.git` when pinned. */
  identity: string;
  gitDir: string;
  /** Remote name → URL, read before the agent ran. */
  remotes: Map<string, string>;
}

/** Checkouts `prepareWorkspace` saw before the agent ran, by root. */
const pins = new Map<string, Pin>();

/**
 * Finds the checkout holding `cwd` from the file system (never asking git, whose discovery reads
 * the configuration), checks that its `.git` is the one pinned before the agent ran (when one was),
 * and sanitizes its configuration (`removePersistedCredentials`, then `sanitizeGitConfig`). Call it before any git command that
 * follows an agent's run: a shell-capable agent may have rewritten `.git/config`.
 */
export async function openRepository(cwd: string): Promise<Repository> {
  const start = await realpath(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const stats = await lstat(dotGit).catch(() => undefined);
    if (stats !== undefined) {
      const pin = pins.get(dir);
      if (pin !== undefined && `${stats.dev}:${stats.ino}` !== pin.identity) {
        throw new GitDirTamperedError(dir, '.git was replaced since the workspace was prepared');
      }
      if (stats.isSymbolicLink()) throw new GitDirTamperedError(dir, '.git is a symbolic link');
      const gitDir = stats.isDirectory() ? dotGit : await gitDirOfFile(dir, dotGit);
      if (pin !== undefined && gitDir !== pin.gitDir) {
        throw new GitDirTamperedError(dir, `.git points to ${gitDir}, not ${pin.gitDir}`);
      }
      const common = await commonDirOf(gitDir);
      // Credentials first: sanitizing drops the include lines that lead to a persisted header's file.
      // Each file is listed once: a listing credential removal did not change is the one sanitized.
      const listings = new Map<string, ConfigEntry[]>();
      await removePersistedCredentials(gitDir, listings);
      if (common !== gitDir) await removePersistedCredentials(common, listings);
      const own = await sanitizeGitConfig(gitDir, listings.get(join(gitDir, 'config')));
      const shared = common === gitDir ? own : await sanitizeGitConfig(common, listings.get(join(common, 'config')));
      return { root: dir, gitDir, commonDir: common, config: shared.kept };
    }
    if (dirname(dir) === dir) throw new GitDirTamperedError(start, 'no git repository holds it');
  }
}

/**
 * Opens the checkout (`openRepository`) and records, before the agent runs, its `.git` and the URL
 * of `remote`, so that later git commands refuse a replaced `.git` and push to that URL whatever
 * `.git/config` says by then. Returns the remote's URL (`remote` itself when it is a URL).
 */
export async function pinRepository(cwd: string, remote: string): Promise<Repository & { remoteUrl: string }> {
  const repository = await openRepository(cwd);
  const stats = await lstat(join(repository.root, '.git'));
  const pin = pins.get(repository.root) ?? {
    identity: `${stats.dev}:${stats.ino}`,
    gitDir: repository.gitDir,
    remotes: new Map<string, string>(),
  };
  pins.set(repository.root, pin);
  const remoteUrl = isRemoteUrl(remote) ? remote : urlOf(repository, remote);
  if (!isRemoteUrl(remote)) pin.remotes.set(remote, remoteUrl);
  return { ...repository, remoteUrl };
}

/**
 * Forgets what was pinned of the checkouts at or under `dir` (a real path), before a new checkout
 * is made there: a retried attempt that clones afresh into its predecessor's path gets pins of its
 * own, instead of failing on the old `.git` ("replaced since the workspace was prepared").
 */
export function forgetPins(dir: string): void {
  const top = resolve(dir);
  for (const root of pins.keys()) {
    if (root === top || root.startsWith(`${top}/`)) pins.delete(root);
  }
}

/**
 * The URL to fetch from or push to for `remote`: itself when it is a URL; else the URL pinned
 * before the agent ran (`pinRepository`), or, for a checkout never pinned, the one its sanitized
 * configuration names now.
 */
export function remoteUrlOf(repository: Repository, remote: string): string {
  if (isRemoteUrl(remote)) return remote;
  return pins.get(repository.root)?.remotes.get(remote) ?? urlOf(repository, remote);
}

/** `https://…`, `file://…` or a local path (`/srv/x.git`, `../x.git`), as opposed to a remote name. */
function isRemoteUrl(remote: string): boolean {
  return remote.includes('/') || remote.includes(':') || remote.includes('\\');
}

/** `remote.<remote>.url` of the configuration just sanitized, as `git config --get` reads it (the last value). */
function urlOf(repository: Repository, remote: string): string {
  const url = (lastConfigValue(repository.config, `remote.${remote}.url`) ?? '').trim();
  if (url === '') throw new GitDirTamperedError(repository.root, `the remote "${remote}" has no URL`);
  // A relative local path is relative to the work tree, as git reads it.
  return isLocalRemote(url) && !/^file:/i.test(url) && !isAbsolute(url) ? resolve(repository.root, url) : url;
}

async function gitDirOfFile(root: string, dotGit: string): Promise<string> {
  const text = await readFile(dotGit, 'utf8');
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) throw new GitDirTamperedError(root, '.git is a file without a gitdir line');
  return realpath(resolve(root, match[1]!.trim()));
}

/** The common directory of a linked worktree's git directory (`commondir`), else the directory itself. */
async function commonDirOf(gitDir: string): Promise<string> {
  if (!/[\\/]worktrees[\\/][^\\/]+$/.test(gitDir)) return gitDir;
  const text = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined);
  return text === undefined ? gitDir : realpath(resolve(gitDir, text.trim()));
}
