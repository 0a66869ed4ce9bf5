import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';

/** `mark_complete`: the agent declares the task done; the outcome is kept on the host. */
export function markCompleteTool() {
  return defineTool({
    name: 'mark_complete',
    description: 'Declares the task complete, with an optional result. Call it once, when the work is done.',
    input: z.object({
      output: z.unknown().optional().describe('The result of the task, if it has one to hand back.'),
    }),
    handler: async (input, ctx) => {
      ctx.recordOutcome({ status: 'completed', output: input.output });
      return { recorded: 'completed' };
    },
  });
}
