import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';

/** `report_progress`: a short status the front ends show while the run goes on. */
export function reportProgressTool() {
  return defineTool({
    name: 'report_progress',
    description:
      'Reports progress: a one-line summary of where the work stands, optionally what you now believe and what you have tried.',
    input: z.object({
      summary: z.string().min(1).describe('Where the work stands, in one line.'),
      beliefs: z.array(z.unknown()).optional().describe('What you currently believe about the problem.'),
      attempted: z.array(z.unknown()).optional().describe('What you have tried so far.'),
    }),
    handler: async (input, ctx) => {
      ctx.emit({
        type: 'progress',
        summary: input.summary,
        ...(input.beliefs === undefined ? {} : { beliefs: input.beliefs }),
        ...(input.attempted === undefined ? {} : { attempted: input.attempted }),
      });
      return { recorded: true };
    },
  });
}
