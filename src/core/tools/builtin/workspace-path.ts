import path from 'node:path';
import { ToolError } from '../tool-error.ts';

/**
 * Splits a path an agent gave into the workspace-relative components it names, lexically: `.`
 * and empty segments dropped, `..` applied (a `..` above the root is refused), an absolute path
 * accepted only under `roots` (the workspace as given and its real path). Lexical resolution is
 * exact because the workspace tools refuse every symbolic link on the way (see `openInWorkspace`).
 * Any component git treats as its own directory (`.git`, case-insensitively, and the spellings
 * NTFS and HFS+ fold to it) is refused.
 */
export function workspaceComponents(requested: string, roots: readonly string[], toolName: string): string[] {
  if (requested.includes('\0')) throw new ToolError(toolName, 'path contains a NUL character');
  const outside = () => new ToolError(toolName, `path "${requested}" is outside the workspace`);
  let relative = requested;
  if (path.isAbsolute(requested)) {
    const target = path.resolve(requested);
    const root = roots.find((candidate) => isInside(candidate, target));
    if (root === undefined) throw outside();
    relative = path.relative(root, target);
  }
  const components: string[] = [];
  for (const segment of relative.split(path.sep === '\\' ? /[\\/]/ : '/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (components.pop() === undefined) throw outside();
      continue;
    }
    components.push(segment);
  }
  if (components.some(isGitDirectoryName)) {
    throw new ToolError(toolName, `path "${requested}" is inside .git, which the workspace tools never touch`);
  }
  return components;
}

/** Characters HFS+ ignores in names, and NTFS's trailing dots and spaces, as git's own `is_hfs_dotgit`/`is_ntfs_dotgit`. */
const ignorable = /[\u200B-\u200F\u202A-\u202E\u2060-\u2063\u206A-\u206F\uFEFF]/g;

/** True for `.git` in any case or spelling a case-folding or Unicode-folding file system takes for it. */
export function isGitDirectoryName(name: string): boolean {
  const folded = name
    .normalize('NFC')
    .replace(ignorable, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return folded === '.git' || folded === 'git~1';
}

/** True when `target` is `dir` or below it (both absolute and normalized). */
export function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}
