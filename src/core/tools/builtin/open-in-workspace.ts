import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tool-error.ts';
import { errorCode } from './resolve-in-workspace.ts';
import { workspaceComponents } from './workspace-path.ts';

/** What to open: a file to read, a file to write (created, with its directories), or a directory. */
export type OpenMode = 'read' | 'write' | 'directory';

/** An open file or directory of the workspace. Close `handle` when done. */
export interface WorkspaceHandle {
  handle: FileHandle;
  /** The workspace-relative path, `/`-separated; `.` for the root. */
  relative: string;
  /** The real workspace root joined with `relative` (for messages and events only: never reopen by it). */
  absolute: string;
  /** A path that reaches this very open file or directory (`/proc/self/fd/N` on Linux). */
  anchor: string;
}

/** `/proc/self/fd/N/<name>` resolves `name` inside the directory the descriptor holds, whatever happens to its path. */
export const anchoredDescriptors = process.platform === 'linux' && existsSync('/proc/self/fd');

const noFollow = constants.O_NOFOLLOW ?? 0;
const directoryFlag = constants.O_DIRECTORY ?? 0;
const nonBlock = constants.O_NONBLOCK ?? 0;

/**
 * Opens a path an agent gave inside the workspace without ever leaving it, as `openat2` with
 * `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` would: the path is split into components lexically
 * (`workspaceComponents`: `..` above the root, absolute paths elsewhere and `.git` refused), then
 * walked from a descriptor of the root one component at a time, each opened with `O_NOFOLLOW`
 * relative to the descriptor of its parent (`/proc/self/fd/N/<name>`). A symbolic link anywhere on
 * the way is refused, and swapping a directory for a link while the walk runs cannot redirect it.
 * Files with more than one hard link are refused too: another name of the same file may live
 * outside the workspace, and nothing in the workspace tells where.
 *
 * Where `/proc/self/fd` is missing (macOS, Windows) the walk checks each component with `lstat`
 * and opens the last with `O_NOFOLLOW`: symbolic links are refused, but a link swapped in between
 * the check and the open of a directory is not detected.
 */
export async function openInWorkspace(
  workspacePath: string,
  requested: string,
  mode: OpenMode,
  toolName: string,
): Promise<WorkspaceHandle> {
  const root = await realRoot(workspacePath, toolName);
  const components = workspaceComponents(requested, [path.resolve(workspacePath), root], toolName);
  const relative = components.join('/') || '.';
  const absolute = path.join(root, ...components);
  const fail = (why: string, cause?: unknown) =>
    new ToolError(toolName, `cannot ${verbs[mode]} "${requested}": ${why}`, { cause });

  const last = mode === 'directory' ? components.length : components.length - 1;
  if (last < 0) throw fail('it is a directory');
  let dir: FileHandle | undefined = await openDirectory(root, root, undefined, fail);
  let dirPath = root;
  try {
    for (let index = 0; index < last; index++) {
      const name = components[index]!;
      const next = await openDirectory(
        childOf(dir, dirPath, name),
        root,
        mode === 'write' ? 'create' : undefined,
        fail,
      );
      await dir.close();
      dir = next;
      dirPath = path.join(dirPath, name);
    }
    if (mode === 'directory') {
      const handle = dir;
      dir = undefined;
      return { handle, relative, absolute, anchor: anchorOf(handle, absolute) };
    }
    const name = components[last]!;
    const target = childOf(dir, dirPath, name);
    await refuseLinkWithoutAnchor(target, fail);
    const flags =
      mode === 'write'
        ? constants.O_WRONLY | constants.O_CREAT | noFollow | nonBlock
        : constants.O_RDONLY | noFollow | nonBlock;
    let handle: FileHandle;
    try {
      handle = await open(target, flags, 0o666);
    } catch (error) {
      throw fail(describeOpenError(error), error);
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw fail(mode === 'read' ? 'it is a directory (use list_files)' : 'it is a directory');
      if (!stats.isFile()) throw fail('it is not a regular file');
      if (stats.nlink > 1) {
        throw fail(`it has ${stats.nlink} hard links, and another of its names may be outside the workspace`);
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return { handle, relative, absolute, anchor: anchorOf(handle, absolute) };
  } finally {
    await dir?.close();
  }
}

async function realRoot(workspacePath: string, toolName: string): Promise<string> {
  try {
    return await realpath(workspacePath);
  } catch (error) {
    throw new ToolError(toolName, `the workspace ${workspacePath} is not accessible`, { cause: error });
  }
}

function childOf(dir: FileHandle, dirPath: string, name: string): string {
  return anchoredDescriptors ? `/proc/self/fd/${dir.fd}/${name}` : path.join(dirPath, name);
}

function anchorOf(handle: FileHandle, absolute: string): string {
  return anchoredDescriptors ? `/proc/self/fd/${handle.fd}` : absolute;
}

const verbs: Record<OpenMode, string> = { read: 'read', write: 'write', directory: 'list' };

type Fail = (why: string, cause?: unknown) => ToolError;

/** Opens one directory with `O_NOFOLLOW`; `create` makes it first when missing. */
async function openDirectory(
  target: string,
  root: string,
  create: 'create' | undefined,
  fail: Fail,
): Promise<FileHandle> {
  if (target !== root) await refuseLinkWithoutAnchor(target, fail);
  const flags = constants.O_RDONLY | directoryFlag | (target === root ? 0 : noFollow);
  try {
    return await open(target, flags);
  } catch (error) {
    if (create !== undefined && errorCode(error) === 'ENOENT') {
      try {
        await mkdir(target);
      } catch (mkdirError) {
        if (errorCode(mkdirError) !== 'EEXIST') throw fail(describeOpenError(mkdirError), mkdirError);
      }
      return openDirectory(target, root, undefined, fail);
    }
    const code = errorCode(error);
    if (code === 'ENOTDIR' || code === 'ELOOP') {
      // For the message only: the open above already refused, whatever lstat says now.
      const link = await lstat(target).then(
        (stats) => stats.isSymbolicLink(),
        () => false,
      );
      throw fail(link ? describeOpenError({ code: 'ELOOP' }) : 'not a directory', error);
    }
    throw fail(describeOpenError(error, 'directory'), error);
  }
}

/** Without `/proc/self/fd`, `O_NOFOLLOW` guards only the last component: check each one first. */
async function refuseLinkWithoutAnchor(target: string, fail: Fail): Promise<void> {
  if (anchoredDescriptors) return;
  try {
    if ((await lstat(target)).isSymbolicLink()) throw fail('it goes through a symbolic link');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function describeOpenError(error: unknown, what = 'file'): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return what === 'directory' ? 'no such directory' : 'no such file';
    case 'ELOOP':
      return 'it goes through a symbolic link, which the workspace tools never follow';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENXIO':
      return 'it is not a regular file';
    default:
      return String(errorCode(error) ?? error);
  }
}
