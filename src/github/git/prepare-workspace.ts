import { access, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type RepositoryReader, resetPathMatcher, resetPathsFor } from './adapter-reset-paths.ts';
import { runGit } from './git.ts';
import { protocolsFor } from './hardened-git.ts';
import { HeadMovedError } from './head-moved-error.ts';
import { instructionImports } from './instruction-imports.ts';
import { pinRepository } from './open-repository.ts';
import { baseEntries, readBaseTexts, restoreFromBase } from './restore-from-base.ts';

/** What `prepareWorkspace` checked out and which agent configuration files it put back. */
export interface PreparedWorkspace {
  /** The commit checked out (the pull request's head, or the default branch's head). */
  headSha: string;
  /**
   * The local branch HEAD is on: a same-repository pull request's head branch, to which new commits
   * can be pushed. Undefined when HEAD is detached (an issue, or a pull request from a fork).
   */
  branch: string | undefined;
  /** The commit agent configuration files were restored from (the base branch's, or the default branch's head). */
  baseSha: string;
  /** Agent configuration files reset in the working tree to their base version (changed or deleted by the PR). */
  restored: string[];
  /** Agent configuration files the PR added (absent from base), deleted from the working tree. */
  removed: string[];
}

/**
 * What to check out: the default branch for an issue, a pull request's head, or a branch of this
 * repository at `headSha` (a conversation's, when its commits have no pull request).
 */
export type WorkspaceTarget =
  | {
      kind: 'issue';
      defaultBranch: string;
      /** The default branch's head as GitHub says it: a checkout that has this commit fetches nothing. */
      headSha?: string;
    }
  | { kind: 'pull'; number: number; headSha: string; headRef: string; baseRef: string; fromFork: boolean }
  | { kind: 'branch'; branch: string; headSha: string; defaultBranch: string };

/** Input of `prepareWorkspace`. */
export interface PrepareWorkspaceInput {
  /** An existing checkout (the Action's) or a fresh clone (the app's); any directory inside it. */
  cwd: string;
  /** The remote to fetch from. Default: `origin`. */
  remote?: string;
  /** A token for HTTPS remotes (see `runGit`). */
  token?: string;
  target: WorkspaceTarget;
  /**
   * The adapter that will run: besides the common set, what it declares its agent reads from the
   * repository is reset (`resetPathsFor`). Default (unknown): what every built-in agent reads.
   */
  adapter?: RepositoryReader;
}

/**
 * Gets a checkout ready for an agent run.
 *
 * - Pull request: unless HEAD already is `headSha`, fetches its head (a same-repository PR's
 *   branch, which a push moves at once; else, and for a fork, `refs/pull/<number>/head`, which GitHub
 *   moves a moment after a push) and checks out `headSha`: on a local branch named
 *   `headRef` (created or reset) for a same-repository PR, detached for a fork. The fetched head must
 *   be `headSha`, and so must HEAD afterwards, or `HeadMovedError` is thrown (someone pushed after the
 *   trigger). The base branch is fetched in any case.
 * - Issue: fetches the default branch (unless the checkout has the commit GitHub names as its
 *   head, `headSha`) and checks out its head, detached.
 * - Branch: fetches the default branch (the base) and the branch, which must be at `headSha`
 *   (else `HeadMovedError`), and checks it out on a local branch of that name.
 *
 * Then every file the agent would read as instructions or configuration (`resetPathsFor(adapter)`:
 * the common `agentConfigPaths` and the adapter's own table; plus every file the base's instruction
 * files import with `@path`, recursively) that the checked-out commit has different from base is
 * put back in the working tree only: written from the base's blob bytes (no attribute, filter or
 * encoding of the pull request applies), or deleted when base has no such file. The index and HEAD keep the PR's version, so nothing is undone in
 * history; pass `[...restored, ...removed]` as `ignore` to `collectChanges` and `publishChanges` so
 * the restoration is never committed as if the agent had made it. (An ignore list was chosen over
 * `git update-index --skip-worktree`: it leaves no state behind in a reused checkout and also covers
 * files absent from the index.) Fetched refs are kept under `refs/agent-mux/`.
 *
 * It runs before the agent: `.git/config` is sanitized (`sanitizeGitConfig`) and the checkout's
 * `.git` and the remote's URL are pinned (`pinRepository`), so that `collectChanges` and
 * `publishChanges` later refuse a replaced `.git` and push to this URL whatever the agent wrote.
 */
export async function prepareWorkspace(input: PrepareWorkspaceInput): Promise<PreparedWorkspace> {
  // Before the agent runs: sanitize .git/config, and pin .git and the remote's URL for publishing.
  const { root, commonDir, remoteUrl } = await pinRepository(input.cwd, input.remote ?? 'origin');
  const protocols = protocolsFor(remoteUrl);
  const git = (args: string[], extra?: { token?: string; input?: string }) =>
    runGit(args, { cwd: root, ...protocols, ...extra });
  // As `git rev-parse --is-shallow-repository` decides it: the repository has a `shallow` file.
  const shallow = await access(join(commonDir, 'shallow')).then(
    () => true,
    () => false,
  );
  const fetch = (refspecs: string[]) =>
    git(
      ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--no-write-fetch-head'].concat(
        shallow ? ['--depth=1'] : [],
        ['--end-of-options', remoteUrl],
        refspecs,
      ),
      { token: input.token },
    );
  const target = input.target;

  let headSha: string;
  let branch: string | undefined;
  let baseSha: string;
  if (target.kind === 'pull') {
    const baseLocal = `refs/agent-mux/base/${target.baseRef}`;
    const pullLocal = `refs/agent-mux/pull/${target.number}/head`;
    const current = await git(['rev-parse', '--verify', 'HEAD^{commit}']).catch(() => '');
    const needHead = current !== target.headSha;
    await fetch([`+refs/heads/${target.baseRef}:${baseLocal}`]);
    if (needHead) {
      // A same-repository pull request's head is its branch, which a push moves at once; GitHub
      // moves `refs/pull/<n>/head` after it, a moment later. A fork's head is only there.
      const pullRef = `+refs/pull/${target.number}/head:${pullLocal}`;
      if (target.fromFork) await fetch([pullRef]);
      else await fetch([`+refs/heads/${target.headRef}:${pullLocal}`]).catch(() => fetch([pullRef]));
    }
    baseSha = await resolve(git, baseLocal);
    if (needHead) {
      const fetched = await resolve(git, pullLocal);
      if (fetched !== target.headSha) throw new HeadMovedError(target.headSha, fetched);
    }
    if (target.fromFork) {
      await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', target.headSha]);
      branch = undefined;
    } else {
      await git(['checkout', '--quiet', '-B', target.headRef, target.headSha]);
      branch = target.headRef;
    }
    headSha = await resolve(git, 'HEAD');
    if (headSha !== target.headSha) throw new HeadMovedError(target.headSha, headSha);
  } else if (target.kind === 'branch') {
    const baseLocal = `refs/agent-mux/base/${target.defaultBranch}`;
    const branchLocal = `refs/agent-mux/branch/${target.branch}`;
    await fetch([`+refs/heads/${target.defaultBranch}:${baseLocal}`, `+refs/heads/${target.branch}:${branchLocal}`]);
    baseSha = await resolve(git, baseLocal);
    const fetched = await resolve(git, branchLocal);
    if (fetched !== target.headSha) throw new HeadMovedError(target.headSha, fetched);
    await git(['checkout', '--quiet', '-B', target.branch, target.headSha]);
    headSha = await resolve(git, 'HEAD');
    branch = target.branch;
  } else {
    const baseLocal = `refs/agent-mux/base/${target.defaultBranch}`;
    // The Action's checkout of an issue event is the default branch's head already: no fetch then.
    const known = target.headSha === undefined ? '' : await resolve(git, target.headSha).catch(() => '');
    if (known !== '' && known === target.headSha) baseSha = known;
    else {
      await fetch([`+refs/heads/${target.defaultBranch}:${baseLocal}`]);
      baseSha = await resolve(git, baseLocal);
    }
    await git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', baseSha]);
    // A detached checkout of a commit id that succeeded is at that commit (no hook runs: hardened git).
    headSha = baseSha;
    branch = undefined;
  }

  // Where HEAD is the base commit there is nothing of the pull request's to put back.
  const { restored, removed } =
    headSha === baseSha ? { restored: [], removed: [] } : await restoreAgentConfig(root, baseSha, git, input.adapter);
  return { headSha, branch, baseSha, restored, removed };
}

type Git = (args: string[], extra?: { token?: string; input?: string }) => Promise<string>;

async function resolve(git: Git, ref: string): Promise<string> {
  return git(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`]);
}

/** How deep `@path` imports are followed (Claude Code and Gemini CLI stop at 5). */
const maxImportDepth = 5;
/** At most this many instruction files are read for imports. */
const maxImportFiles = 500;

/**
 * Puts back, in the working tree only, what `adapter`'s agent would read as instructions or
 * configuration (`resetPathsFor`, and the files the base's instruction files import) where HEAD
 * has it different from `baseSha`. Restored files are written from the base's blobs
 * (`restoreFromBase`), never through a checkout that would apply the pull request's
 * `.gitattributes`.
 */
async function restoreAgentConfig(
  root: string,
  baseSha: string,
  git: Git,
  adapter: RepositoryReader | undefined,
): Promise<{ restored: string[]; removed: string[] }> {
  const isReset = resetPathMatcher(resetPathsFor(adapter));
  // Both read only the object store: they run side by side.
  const [imported, output] = await Promise.all([
    baseImports(root, baseSha, git, isReset),
    git([
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      '--no-relative',
      '--name-status',
      '-z',
      baseSha,
      'HEAD',
      '--',
    ]),
  ]);
  const fields = output.split('\0');
  const restored: string[] = [];
  const removed: string[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index]!;
    const path = fields[index + 1]!;
    if (status === '' || !(isReset(path) || imported.has(path))) continue;
    (status.startsWith('A') ? removed : restored).push(path);
  }
  // Deletions first: a planted symlink `.claude` must go before `.claude/settings.json` comes back.
  for (const path of removed) {
    await rm(join(root, path), { recursive: true, force: true });
    await pruneEmptyParents(root, path);
  }
  const replaced = await restoreFromBase(root, await baseEntries(git, baseSha, restored));
  return { restored, removed: [...removed, ...replaced] };
}

/**
 * The repository paths the base commit's instruction files import (`@path`, see
 * `instructionImports`), followed recursively up to `maxImportDepth`. The files read are the
 * base's Markdown files among the reset paths (`CLAUDE.md`, `GEMINI.md`, `.claude/commands/*.md`, …
 * at any depth): after the reset, those are what the agent reads, so their imports must be the
 * base's files too.
 */
async function baseImports(
  root: string,
  baseSha: string,
  git: Git,
  isReset: (path: string) => boolean,
): Promise<Set<string>> {
  const listing = await git([
    '-c',
    'core.quotePath=false',
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    '--full-tree',
    baseSha,
  ]);
  let frontier = listing
    .split('\0')
    .filter((path) => path !== '' && /\.md$/i.test(path) && isReset(path))
    .slice(0, maxImportFiles);
  const read = new Set<string>(frontier);
  const imported = new Set<string>();
  for (let depth = 0; depth < maxImportDepth && frontier.length > 0; depth++) {
    const texts = await readBaseTexts(root, baseSha, frontier);
    const next: string[] = [];
    for (const [path, text] of texts) {
      for (const target of instructionImports(text, path, root)) {
        imported.add(target);
        if (!read.has(target) && read.size < maxImportFiles) {
          read.add(target);
          next.push(target);
        }
      }
    }
    frontier = next;
  }
  return imported;
}

/** Removes the folders a deletion left empty, up to (not including) the top of the repository. */
async function pruneEmptyParents(root: string, path: string): Promise<void> {
  for (let parent = dirname(path); parent !== '.' && parent !== '/'; parent = dirname(parent)) {
    try {
      await rmdir(join(root, parent));
    } catch {
      return;
    }
  }
}
