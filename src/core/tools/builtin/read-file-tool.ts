import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';
import { formatBytes } from './format-bytes.ts';
import { openInWorkspace } from './open-in-workspace.ts';

export interface ReadFileToolOptions {
  /** Most bytes one call returns. Default 1 MiB. */
  maxBytes?: number;
}

/** `read_file`: a UTF-8 file of the workspace, at most `maxBytes` per call (and says when it cut). */
export function readFileTool(options: ReadFileToolOptions = {}) {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  return defineTool({
    name: 'read_file',
    description: `Reads a text file of the workspace (path relative to it; symbolic links, files with several hard links and .git are refused). Returns at most ${formatBytes(maxBytes)}; when the file is longer the result says so and gives the offset to continue from.`,
    input: z.object({
      path: z.string().min(1).describe('File path, relative to the workspace.'),
      offset: z.number().int().nonnegative().default(0).describe('Byte offset to start reading at.'),
    }),
    handler: async (input, ctx) => {
      const target = await openInWorkspace(ctx.workspacePath, input.path, 'read', 'read_file');
      const handle = target.handle;
      try {
        const stats = await handle.stat();
        const size = stats.size;
        const length = Math.max(0, Math.min(maxBytes, size - input.offset));
        const buffer = Buffer.alloc(length);
        const { bytesRead } = length > 0 ? await handle.read(buffer, 0, length, input.offset) : { bytesRead: 0 };
        const end = input.offset + bytesRead;
        const truncated = end < size;
        return {
          path: target.relative,
          size,
          content: new TextDecoder().decode(buffer.subarray(0, bytesRead)),
          truncated,
          ...(truncated
            ? {
                notice: `truncated: returned bytes ${input.offset}-${end} of ${size} (read cap ${formatBytes(maxBytes)}); read again with offset ${end} for more`,
              }
            : {}),
        };
      } finally {
        await handle.close();
      }
    },
  });
}
