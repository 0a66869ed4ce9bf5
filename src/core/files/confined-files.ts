import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, open, readdir, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';

/**
 * Reading what an agent left in its session store, outside its fence: the agent may have replaced
 * any file or directory there with a symbolic link (to the app's `.env`, its data directory, the
 * runner's files), a FIFO or a device. Everything here reads only regular files reached through
 * real directories: no link is followed, in the store's own path below its anchor (the agent's
 * HOME) or in the file's.
 */

/** Why a path under a session store is not read. */
export class UnsafeSessionPathError extends Error {
  override readonly name = 'UnsafeSessionPathError';
  readonly path: string;
  constructor(path: string, why: string) {
    super(`${path}: ${why}`);
    this.path = path;
  }
  static isInstance(error: unknown): error is UnsafeSessionPathError {
    return error instanceof Error && error.name === 'UnsafeSessionPathError';
  }
}

/** A path relative to a store that stays inside it (no absolute path, no `..`). */
export function isInsidePath(path: string): boolean {
  const clean = normalize(path);
  return path !== '' && !isAbsolute(path) && clean !== '..' && !clean.startsWith(`..${sep}`) && clean !== '.';
}

/** Every component of `path` below `base` (`base` itself trusted) is a real directory, not a link. */
async function realDirectories(base: string, path: string): Promise<boolean> {
  let at = base;
  for (const part of path.split(sep).filter((p) => p !== '' && p !== '.')) {
    at = join(at, part);
    const found = await lstat(at).catch(() => undefined);
    if (!found?.isDirectory()) return false;
  }
  return true;
}

/**
 * The store `root` is a real directory reached without links from `anchor` (the agent's HOME,
 * which agent-mux made and the agent cannot replace); a root outside the anchor (set by the
 * operator) must itself not be a link.
 */
export async function isRealStore(root: string, anchor?: string): Promise<boolean> {
  if (anchor !== undefined) {
    const below = relative(anchor, root);
    if (below === '') return (await lstat(root).catch(() => undefined))?.isDirectory() ?? false;
    if (isInsidePath(below)) return realDirectories(anchor, below);
  }
  return (await lstat(root).catch(() => undefined))?.isDirectory() ?? false;
}

/** Is `path` (relative to `root`) a regular file reached through real directories? Never follows a link. */
export async function isRegularFileInside(root: string, path: string): Promise<boolean> {
  if (!isInsidePath(path)) return false;
  const parent = normalize(path).split(sep).slice(0, -1).join(sep);
  if (!(await realDirectories(root, parent))) return false;
  return (await lstat(join(root, path)).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Regular files under `dir` (recursively, `dir` inside `root`), relative to `root`, reached
 * through real directories only: none when `dir` does not exist or is reached through a link.
 */
export async function listFiles(root: string, dir: string): Promise<string[]> {
  const below = relative(root, dir);
  if (below !== '' && !isInsidePath(below)) return [];
  if (!(await realDirectories(root, below))) return [];
  // Recursive readdir does not descend into linked directories, and a link is never `isFile()`.
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

const HAS_PROC_FD = existsSync('/proc/self/fd');

/**
 * Opens `path` (relative to `root`) for reading only when it is a regular file inside the store
 * reached through real directories: the last component with `O_NOFOLLOW`, each directory checked
 * with `lstat`, and on Linux the open file's own path (`/proc/self/fd`) compared with where it
 * should be, so a directory swapped for a link between the check and the open is caught too.
 * Throws `UnsafeSessionPathError` otherwise; the caller closes the handle.
 */
export async function openRegularInside(root: string, path: string): Promise<FileHandle> {
  if (!isInsidePath(path)) throw new UnsafeSessionPathError(path, 'outside the session store');
  const clean = normalize(path);
  const parent = clean.split(sep).slice(0, -1).join(sep);
  if (!(await realDirectories(root, parent)))
    throw new UnsafeSessionPathError(path, 'a directory on its path is a link or missing');
  let handle: FileHandle;
  try {
    handle = await open(join(root, clean), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnsafeSessionPathError(path, code === 'ELOOP' ? 'a symbolic link' : `cannot be opened (${code})`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new UnsafeSessionPathError(path, 'not a regular file');
    if (HAS_PROC_FD) {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      const expected = join(await realpath(root), clean);
      if (opened !== expected) throw new UnsafeSessionPathError(path, `resolves to ${opened}, outside its place`);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Size of `path` (relative to `root`) without following a link; undefined when not a regular file inside. */
export async function regularFileSize(root: string, path: string): Promise<number | undefined> {
  if (!(await isRegularFileInside(root, path))) return undefined;
  return (await lstat(join(root, path))).size;
}
