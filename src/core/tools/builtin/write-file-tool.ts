import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';
import { openInWorkspace } from './open-in-workspace.ts';

/** `write_file`: writes a UTF-8 file inside the workspace, creating its directories; emits `file_output`. */
export function writeFileTool() {
  return defineTool({
    name: 'write_file',
    description:
      'Writes a text file in the workspace (path relative to it), replacing it if it exists and creating missing directories. Symbolic links, files with several hard links and .git are refused.',
    input: z.object({
      path: z.string().min(1).describe('File path, relative to the workspace.'),
      content: z.string().describe('The whole new content of the file.'),
    }),
    handler: async (input, ctx) => {
      const target = await openInWorkspace(ctx.workspacePath, input.path, 'write', 'write_file');
      try {
        // Truncate only now: the checks (regular file, one link) ran on this very descriptor.
        await target.handle.truncate(0);
        await target.handle.writeFile(input.content, { encoding: 'utf8', signal: ctx.signal });
      } finally {
        await target.handle.close();
      }
      const fileName = target.relative.slice(target.relative.lastIndexOf('/') + 1);
      ctx.emit({ type: 'file_output', fileName, path: target.absolute });
      return { path: target.relative, bytes: Buffer.byteLength(input.content, 'utf8') };
    },
  });
}
