import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tool-error.ts';

export interface WorkspacePath {
  /** The real (symlink-free) workspace root. */
  root: string;
  /** Real path of the target: its existing part resolved, any missing tail appended. */
  absolute: string;
  /** `absolute` relative to `root`, with `/` separators; `.` for the root itself. */
  relative: string;
}

/**
 * Resolves a path an agent gave (relative to the workspace, or absolute inside it) and refuses any
 * that leaves the workspace: by `..`, by an absolute path elsewhere, or through a symbolic link
 * (a dangling one included, since writing through it would create its target).
 * The target itself need not exist.
 */
export async function resolveInWorkspace(
  workspacePath: string,
  requested: string,
  toolName: string,
): Promise<WorkspacePath> {
  if (requested.includes('\0')) throw new ToolError(toolName, 'path contains a NUL character');
  const root = await realRoot(workspacePath, toolName);
  const outside = () => new ToolError(toolName, `path "${requested}" is outside the workspace`);

  let candidate: string;
  if (path.isAbsolute(requested)) {
    // Accept absolute paths under either spelling of the workspace (it may itself be a symlink).
    const given = path.resolve(workspacePath);
    const target = path.resolve(requested);
    if (isInside(given, target)) candidate = path.join(root, path.relative(given, target));
    else if (isInside(root, target)) candidate = target;
    else throw outside();
  } else {
    candidate = path.resolve(root, requested);
    if (!isInside(root, candidate)) throw outside();
  }

  const absolute = await realTarget(root, candidate, requested, toolName);
  const relative = path.relative(root, absolute).split(path.sep).join('/') || '.';
  return { root, absolute, relative };
}

async function realRoot(workspacePath: string, toolName: string): Promise<string> {
  try {
    return await realpath(workspacePath);
  } catch (error) {
    throw new ToolError(toolName, `the workspace ${workspacePath} is not accessible`, { cause: error });
  }
}

/** Walks up from the candidate to its deepest existing ancestor and checks that one's real path. */
async function realTarget(root: string, candidate: string, requested: string, toolName: string): Promise<string> {
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    let real: string | undefined;
    try {
      real = await realpath(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw new ToolError(toolName, `cannot resolve path "${requested}": ${errorCode(error) ?? error}`, {
          cause: error,
        });
      }
      if (await exists(current)) {
        throw new ToolError(toolName, `path "${requested}" goes through a symbolic link whose target is missing`);
      }
    }
    if (real !== undefined) {
      if (!isInside(root, real)) {
        throw new ToolError(toolName, `path "${requested}" resolves outside the workspace (through a symbolic link)`);
      }
      return path.join(real, ...missing.reverse());
    }
    missing.push(path.basename(current));
    const parent = path.dirname(current);
    if (parent === current) throw new ToolError(toolName, `cannot resolve path "${requested}"`);
    current = parent;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** True when `target` is `dir` or below it (both absolute and normalized). */
export function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
