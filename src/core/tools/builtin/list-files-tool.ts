import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../tool-error.ts';
import { defineTool } from '../tool-registry.ts';
import { errorCode, resolveInWorkspace } from './resolve-in-workspace.ts';

export interface ListFilesToolOptions {
  /** Most entries one call returns. Default 1000. */
  maxEntries?: number;
}

export interface FileEntry {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
}

/** Directories a recursive listing shows but does not enter. */
const opaqueDirectories = new Set(['.git']);

/** `list_files`: the entries of a workspace directory, sorted; recursive on request, capped. */
export function listFilesTool(options: ListFilesToolOptions = {}) {
  const maxEntries = options.maxEntries ?? 1000;
  return defineTool({
    name: 'list_files',
    description: `Lists a directory of the workspace (default: its root). With recursive, lists the whole tree below it (symbolic links and .git are not entered). Returns at most ${maxEntries} entries and says when there are more.`,
    input: z.object({
      path: z.string().min(1).default('.').describe('Directory, relative to the workspace.'),
      recursive: z.boolean().default(false).describe('List subdirectories too.'),
    }),
    handler: async (input, ctx) => {
      const dir = await resolveInWorkspace(ctx.workspacePath, input.path, 'list_files');
      const entries: FileEntry[] = [];
      let truncated = false;

      const walk = async (absolute: string, relative: string): Promise<void> => {
        if (ctx.signal.aborted) throw new ToolError('list_files', 'aborted');
        let dirents: Dirent[];
        try {
          dirents = await readdir(absolute, { withFileTypes: true });
        } catch (error) {
          if (relative !== dir.relative) return; // a subdirectory that vanished or is unreadable
          const code = errorCode(error);
          const why = code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : String(code);
          throw new ToolError('list_files', `cannot list "${input.path}": ${why}`, { cause: error });
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
          if (input.recursive && type === 'directory' && !opaqueDirectories.has(dirent.name)) {
            await walk(path.join(absolute, dirent.name), entryPath);
            if (truncated) return;
          }
        }
      };

      await walk(dir.absolute, dir.relative);
      return {
        path: dir.relative,
        entries,
        truncated,
        ...(truncated ? { notice: `truncated: showing the first ${maxEntries} entries` } : {}),
      };
    },
  });
}
