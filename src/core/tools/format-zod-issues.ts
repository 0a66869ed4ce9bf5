import type { z } from 'zod';

/** `path: message` for each issue, joined with `; `, with zod's "Invalid input: " prefix dropped. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const message = issue.message.replace(/^Invalid input: /, '');
      return path === '' ? message : `${path}: ${message}`;
    })
    .join('; ');
}
