import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';

/** `read_task`: the task as the front end gave it (prompt, repository, issue or pull request). */
export function readTaskTool() {
  return defineTool({
    name: 'read_task',
    description:
      'Returns the task of this run: the prompt and the context the requester gave (repository, issue or pull request).',
    input: z.object({}),
    handler: async (_input, ctx) => ctx.task,
  });
}
