import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../tool-error.ts';
import { defineTool } from '../tool-registry.ts';
import { resolveInWorkspace } from './resolve-in-workspace.ts';

/** `write_file`: writes a UTF-8 file inside the workspace, creating its directories; emits `file_output`. */
export function writeFileTool() {
  return defineTool({
    name: 'write_file',
    description:
      'Writes a text file in the workspace (path relative to it), replacing it if it exists and creating missing directories.',
    input: z.object({
      path: z.string().min(1).describe('File path, relative to the workspace.'),
      content: z.string().describe('The whole new content of the file.'),
    }),
    handler: async (input, ctx) => {
      const target = await resolveInWorkspace(ctx.workspacePath, input.path, 'write_file');
      if (target.relative === '.' || (await isDirectory(target.absolute))) {
        throw new ToolError('write_file', `cannot write "${input.path}": it is a directory`);
      }
      await mkdir(path.dirname(target.absolute), { recursive: true });
      await writeFile(target.absolute, input.content, { encoding: 'utf8', signal: ctx.signal });
      ctx.emit({ type: 'file_output', fileName: path.basename(target.absolute), path: target.absolute });
      return { path: target.relative, bytes: Buffer.byteLength(input.content, 'utf8') };
    },
  });
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}
