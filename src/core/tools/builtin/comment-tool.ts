import { z } from 'zod';
import { defineTool } from '../tool-registry.ts';

/** `comment`: a message for the humans following the run; the front end delivers it. */
export function commentTool() {
  return defineTool({
    name: 'comment',
    description:
      'Posts a comment for the people following this run (for example on the issue or pull request). Use it for questions and notable findings, not for routine progress.',
    input: z.object({
      text: z.string().min(1).describe('The comment, in Markdown.'),
      mentions: z.array(z.string().min(1)).default([]).describe('Handles to notify, such as "@octocat".'),
    }),
    handler: async (input, ctx) => {
      ctx.emit({ type: 'comment', text: input.text, mentions: input.mentions });
      return { queued: true };
    },
  });
}
