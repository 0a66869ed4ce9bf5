import { constants, type Dirent } from 'node:fs';
import { type FileHandle, open, readdir } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError } from '../tool-error.ts';
import { defineTool } from '../tool-registry.ts';
import { anchoredDescriptors, openInWorkspace } from './open-in-workspace.ts';
import { isGitDirectoryName } from './workspace-path.ts';

export interface ListFilesToolOptions {
  /** Most entries one call returns. Default 1000. */
  maxEntries?: number;
}

export interface FileEntry {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
}

/** `list_files`: the entries of a workspace directory, sorted; recursive on request, capped. */
export function listFilesTool(options: ListFilesToolOptions = {}) {
  const maxEntries = options.maxEntries ?? 1000;
  return defineTool({
    name: 'list_files',
    description: `Lists a directory of the workspace (default: its root). With recursive, lists the whole tree below it (symbolic links and .git are not entered; .git itself cannot be listed). Returns at most ${maxEntries} entries and says when there are more.`,
    input: z.object({
      path: z.string().min(1).default('.').describe('Directory, relative to the workspace.'),
      recursive: z.boolean().default(false).describe('List subdirectories too.'),
    }),
    handler: async (input, ctx) => {
      const dir = await openInWorkspace(ctx.workspacePath, input.path, 'directory', 'list_files');
      const entries: FileEntry[] = [];
      let truncated = false;

      // Each directory is read through a descriptor opened with O_NOFOLLOW from its parent's, so a
      // directory swapped for a symbolic link during the walk is skipped, never followed.
      const walk = async (anchor: string, relative: string): Promise<void> => {
        if (ctx.signal.aborted) throw new ToolError('list_files', 'aborted');
        let dirents: Dirent[];
        try {
          dirents = await readdir(anchor, { withFileTypes: true });
        } catch (error) {
          if (relative !== dir.relative) return; // a subdirectory that vanished or is unreadable
          throw new ToolError('list_files', `cannot list "${input.path}"`, { cause: error });
        }
        dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const dirent of dirents) {
          if (entries.length >= maxEntries) {
            truncated = true;
            return;
          }
          const entryPath = relative === '.' ? dirent.name : `${relative}/${dirent.name}`;
          const type = dirent.isDirectory()
            ? 'directory'
            : dirent.isFile()
              ? 'file'
              : dirent.isSymbolicLink()
                ? 'symlink'
                : 'other';
          entries.push({ path: entryPath, type });
          if (input.recursive && type === 'directory' && !isGitDirectoryName(dirent.name)) {
            const child = await openChildDirectory(anchor, dirent.name);
            if (child === undefined) continue;
            try {
              await walk(anchorOf(child, `${anchor}/${dirent.name}`), entryPath);
            } finally {
              await child.close();
            }
            if (truncated) return;
          }
        }
      };

      try {
        await walk(dir.anchor, dir.relative);
      } finally {
        await dir.handle.close();
      }
      return {
        path: dir.relative,
        entries,
        truncated,
        ...(truncated ? { notice: `truncated: showing the first ${maxEntries} entries` } : {}),
      };
    },
  });
}

/** Opens a subdirectory without following a symbolic link; undefined when it is not (or no longer) a directory. */
async function openChildDirectory(parentAnchor: string, name: string): Promise<FileHandle | undefined> {
  try {
    return await open(`${parentAnchor}/${name}`, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
}

function anchorOf(handle: FileHandle, fallback: string): string {
  return anchoredDescriptors ? `/proc/self/fd/${handle.fd}` : fallback;
}
