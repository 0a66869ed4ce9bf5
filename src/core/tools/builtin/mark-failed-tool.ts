import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';

/** `mark_failed`: the agent declares it cannot finish the task, and why. */
export function markFailedTool() {
  return defineTool({
    name: 'mark_failed',
    description: 'Declares that the task cannot be completed, with the reason. Call it once, instead of mark_complete.',
    input: z.object({
      reason: z.string().min(1).describe('Why the task failed, in a few words.'),
      details: z.string().optional().describe('What was tried and what stood in the way.'),
    }),
    handler: async (input, ctx) => {
      ctx.recordOutcome({
        status: 'failed',
        reason: input.reason,
        ...(input.details === undefined ? {} : { details: input.details }),
      });
      return { recorded: 'failed' };
    },
  });
}
