import { lstat, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { GitError } from './git-error.ts';
import { hardenedConfigArgs, hardenedEnv } from './hardened-git.ts';

/** A file of the base commit: its mode and object id (`git ls-tree`). */
export interface BaseEntry {
  path: string;
  mode: string;
  oid: string;
}

/**
 * Writes `entries` into the working tree exactly as the base commit stores them: the blob's bytes
 * (`git cat-file blob`, no filter, no `working-tree-encoding`, no end-of-line conversion, no
 * `ident`), a symbolic link for mode 120000, the executable bit for 100755. Nothing goes through a
 * checkout, so no `.gitattributes` of the pull request (nor any other) changes what is written.
 * Whatever stands at the path (a file, a folder, a symbolic link planted by the pull request) is
 * removed first, and so is every symbolic link or file standing where a parent folder should
 * be, so nothing is ever written through a link to outside the repository. Submodules (mode
 * 160000) are left alone. Returns the parents it had to replace (to keep out of the commit too).
 */
export async function restoreFromBase(root: string, entries: readonly BaseEntry[]): Promise<string[]> {
  const replacedParents = new Set<string>();
  for (const entry of entries) {
    if (entry.mode === '160000') continue;
    for (const parent of await ensureRealFolders(root, entry.path)) replacedParents.add(parent);
    const target = join(root, entry.path);
    await rm(target, { recursive: true, force: true });
    const bytes = await readBlob(root, entry.oid);
    if (entry.mode === '120000') await symlink(Buffer.from(bytes).toString('utf8'), target);
    else await writeFile(target, bytes, { flag: 'wx', mode: entry.mode === '100755' ? 0o755 : 0o644 });
  }
  return [...replacedParents];
}

/** Makes each parent folder of `path` a real folder inside `root`; returns those that were not (and were replaced). */
async function ensureRealFolders(root: string, path: string): Promise<string[]> {
  const parts = path.split('/').slice(0, -1);
  const replaced: string[] = [];
  for (let index = 1; index <= parts.length; index++) {
    const relative = parts.slice(0, index).join('/');
    const full = join(root, relative);
    const stats = await lstat(full).catch(() => undefined);
    if (stats?.isDirectory()) continue;
    if (stats !== undefined) {
      await rm(full, { force: true });
      replaced.push(relative);
    }
    await mkdir(full);
  }
  return replaced;
}

/** The raw bytes of a blob. */
async function readBlob(root: string, oid: string): Promise<Uint8Array> {
  const result = await execa('git', [...hardenedConfigArgs(), 'cat-file', 'blob', oid], {
    cwd: root,
    env: hardenedEnv(),
    encoding: 'buffer',
    reject: false,
    stdin: 'ignore',
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.exitCode !== 0) {
    throw new GitError('cat-file', result.exitCode, Buffer.from(result.stderr).toString('utf8').trim());
  }
  return result.stdout;
}

/**
 * The base commit's entries for `paths` (those it has; a path it lacks is simply absent), read with
 * `git ls-tree` so that the pull request's working tree plays no part.
 */
export async function baseEntries(
  git: (args: string[]) => Promise<string>,
  baseSha: string,
  paths: readonly string[],
): Promise<BaseEntry[]> {
  if (paths.length === 0) return [];
  const output = await git(['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', baseSha, '--', ...paths]);
  const entries: BaseEntry[] = [];
  for (const record of output.split('\0')) {
    const match = /^(\d{6}) (\w+) ([0-9a-f]+)\t([\s\S]+)$/.exec(record);
    if (match && match[2] !== 'tree') entries.push({ mode: match[1]!, oid: match[3]!, path: match[4]! });
  }
  return entries;
}

/** Largest file read for imports; bigger ones are not instruction files an agent reads whole. */
const maxTextBytes = 1024 * 1024;

/**
 * The contents of `paths` in `baseSha`, decoded as UTF-8 (`git cat-file --batch`, one process; no
 * filter). Paths the commit lacks, folders, links, files over 1 MiB and names holding a newline
 * (which the batch protocol cannot carry) are left out.
 */
export async function readBaseTexts(
  root: string,
  baseSha: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const asked = paths.filter((path) => !/[\n\r]/.test(path));
  if (asked.length === 0) return texts;
  const result = await execa('git', [...hardenedConfigArgs(), 'cat-file', '--batch'], {
    cwd: root,
    env: hardenedEnv(),
    encoding: 'buffer',
    reject: false,
    input: asked.map((path) => `${baseSha}:${path}\n`).join(''),
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.exitCode !== 0) {
    throw new GitError('cat-file', result.exitCode, Buffer.from(result.stderr).toString('utf8').trim());
  }
  const out = Buffer.from(result.stdout);
  let at = 0;
  for (const path of asked) {
    const newline = out.indexOf(10, at);
    if (newline === -1) break;
    const header = out.subarray(at, newline).toString('utf8');
    at = newline + 1;
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!match) continue; // `<object> missing`
    const size = Number(match[2]);
    if (match[1] === 'blob' && size <= maxTextBytes) texts.set(path, out.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return texts;
}
