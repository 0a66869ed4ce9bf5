import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { runGit, spawnGit } from './git.ts';
import { openRepository } from './open-repository.ts';
import { stageChanges } from './stage-changes.ts';

/** One file the working tree changes against `HEAD`. */
export interface ChangedFile {
  /** The path in the new tree (the old one for a deletion), relative to the top of the repository. */
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** For a rename: the path before. */
  previousPath?: string;
  /** The first changed line of the new file (for a check-run annotation); undefined for deletions and binary files. */
  firstLine: number | undefined;
  /** Lines added; 0 for a binary file. */
  additions: number;
  /** Lines deleted; 0 for a binary file. */
  deletions: number;
}

/** Options of `collectChanges`. */
export interface CollectChangesOptions {
  /**
   * Paths (relative to the top of the repository, literal) left out, as if unchanged: the agent
   * configuration files `prepareWorkspace` restored or removed. Default: none.
   */
  ignore?: readonly string[];
}

/**
 * The changes of the working tree against `HEAD`, as the next commit of `publishChanges` would
 * hold them: edits, deletions, renames and untracked files (those `.gitignore` excludes are left
 * out). It works on a copy of the index, so the real index is untouched. Git's `-z` output is
 * parsed, so any file name (spaces, newlines, quotes, non-ASCII) comes back exactly. It runs after
 * the agent, so it first opens the checkout with `openRepository` (a replaced `.git` refused, the
 * configuration sanitized).
 */
export async function collectChanges(cwd: string, options: CollectChangesOptions = {}): Promise<ChangedFile[]> {
  const { root } = await openRepository(cwd);
  const scratch = await mkdtemp(join(tmpdir(), 'agent-mux-index-'));
  try {
    const indexFile = join(scratch, 'index');
    const realIndex = await runGit(['rev-parse', '--git-path', 'index'], { cwd: root });
    const source = isAbsolute(realIndex) ? realIndex : join(root, realIndex);
    await copyFile(source, indexFile).catch(() => undefined);
    // Keep the index's mtime: git trusts a file's cached stat only when the file is older than
    // the index ("racy git"), so a fresh mtime would hide same-size edits made in the second of
    // the checkout.
    await stat(source)
      .then((st) => utimes(indexFile, st.atime, st.mtime))
      .catch(() => undefined);
    const env = { GIT_INDEX_FILE: indexFile };
    await stageChanges(root, options.ignore ?? [], env);
    return await diffIndex(root, env);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The staged changes of the index `env` names against `from` (a commit; default `HEAD`, and the
 * empty tree on an unborn branch).
 */
export async function diffIndex(root: string, env: Record<string, string>, from?: string): Promise<ChangedFile[]> {
  const against = from ?? (await headOrEmptyTree(root));
  const base = [
    '-c',
    'core.quotePath=false',
    'diff',
    '--cached',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    '--no-relative',
    '--find-renames',
    '--ignore-submodules=none',
  ];
  const [nameStatus, numstat, patch] = await Promise.all([
    runGit([...base, '-z', '--name-status', against, '--'], { cwd: root, env }),
    runGit([...base, '-z', '--numstat', against, '--'], { cwd: root, env }),
    runGit([...base, '--unified=0', '--src-prefix=a/', '--dst-prefix=b/', against, '--'], { cwd: root, env }),
  ]);
  const entries = parseNameStatus(nameStatus);
  const counts = parseNumstat(numstat);
  const firstLines = parseFirstLines(patch);
  const aligned = firstLines.length === entries.length;
  return entries.map((entry, index) => {
    const count = counts.get(entry.path);
    const file: ChangedFile = {
      path: entry.path,
      status: entry.status,
      firstLine: entry.status === 'deleted' || !aligned ? undefined : firstLines[index],
      additions: count?.additions ?? 0,
      deletions: count?.deletions ?? 0,
    };
    if (entry.previousPath !== undefined) file.previousPath = entry.previousPath;
    return file;
  });
}

/** `HEAD`'s commit, or the empty tree on an unborn branch. */
async function headOrEmptyTree(root: string): Promise<string> {
  const head = await spawnGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root });
  return head.exitCode === 0 ? head.stdout : runGit(['hash-object', '-t', 'tree', '/dev/null'], { cwd: root });
}

interface NameStatus {
  path: string;
  status: ChangedFile['status'];
  previousPath?: string;
}

/** Parses `git diff -z --name-status`: `X\0path\0`, or `R<score>\0old\0new\0` (and `C…` likewise). */
function parseNameStatus(output: string): NameStatus[] {
  const fields = output.split('\0');
  const entries: NameStatus[] = [];
  let index = 0;
  while (index < fields.length) {
    const code = fields[index++]!;
    if (code === '') continue;
    const letter = code[0];
    if (letter === 'R' || letter === 'C') {
      const previousPath = fields[index++]!;
      const path = fields[index++]!;
      entries.push(letter === 'R' ? { path, status: 'renamed', previousPath } : { path, status: 'added' });
    } else {
      const path = fields[index++]!;
      const status = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
      entries.push({ path, status });
    }
  }
  return entries;
}

/** Parses `git diff -z --numstat`: `add\tdel\tpath\0`, or `add\tdel\t\0old\0new\0` for a rename; `-` for binary. */
function parseNumstat(output: string): Map<string, { additions: number; deletions: number }> {
  const fields = output.split('\0');
  const counts = new Map<string, { additions: number; deletions: number }>();
  let index = 0;
  while (index < fields.length) {
    const field = fields[index++]!;
    if (field === '') continue;
    const [added = '-', deleted = '-', ...rest] = field.split('\t');
    let path = rest.join('\t');
    if (path === '') {
      index++; // the old path of a rename
      path = fields[index++] ?? '';
    }
    counts.set(path, { additions: toCount(added), deletions: toCount(deleted) });
  }
  return counts;
}

function toCount(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isNaN(value) ? 0 : value;
}

/**
 * The first changed new-file line of each file section of a `-U0` patch, in output order (the
 * order of `--name-status`). File names need not be parsed: git quotes any newline in them, so a
 * section starts exactly where a line starts with `diff --git `.
 */
function parseFirstLines(patch: string): (number | undefined)[] {
  if (patch === '') return [];
  const sections = `\n${patch}`.split('\ndiff --git ').slice(1);
  return sections.map((section) => {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/m.exec(section);
    if (!hunk) return undefined;
    const start = Number(hunk[1]);
    const length = hunk[2] === undefined ? 1 : Number(hunk[2]);
    // A hunk that only deletes reports the line before the deletion (0 at the top of the file).
    return length === 0 ? Math.max(start, 1) : start;
  });
}
