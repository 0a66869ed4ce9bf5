import { z } from 'zod';

/** How serious a finding is, most serious first: the order thresholds compare by. */
export const SEVERITIES = ['blocker', 'major', 'minor', 'nit'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Whether `severity` is `threshold` or more serious. */
export function severityAtLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/**
 * One finding as an agent reports it (the `report_finding` tool's input, or one entry of the
 * fenced JSON block an agent without MCP ends its answer with): where on the pull request's
 * head it is, how serious, what, and optionally the code that should replace the lines.
 */
export const findingSchema = z
  .object({
    path: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
        message: 'a path relative to the repository root, without ".."',
      })
      .describe("The file's path relative to the repository root, as the pull request's diff names it."),
    line: z
      .number()
      .int()
      .min(1)
      .describe('The line of the file on the head commit the finding is about (the last line of a range).'),
    startLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The first line of a range of lines, when the finding covers more than one.'),
    severity: z.enum(SEVERITIES).describe('blocker: must be fixed before merging; major; minor; nit: style.'),
    title: z.string().trim().min(1).max(200).describe('One line saying what is wrong.'),
    body: z.string().trim().max(10_000).default('').describe('Why it is wrong and how to fix it (Markdown).'),
    suggestion: z
      .string()
      .max(20_000)
      .optional()
      .describe('The exact text that should replace the lines startLine..line (or line), without a code fence.'),
  })
  .refine((finding) => finding.startLine === undefined || finding.startLine <= finding.line, {
    message: 'startLine must not be after line',
    path: ['startLine'],
  });

export type Finding = z.output<typeof findingSchema>;
/** What an agent may send: `body` may be left out. */
export type FindingInput = z.input<typeof findingSchema>;

/** The first line of the finding's range. */
export function firstLineOf(finding: Pick<Finding, 'line' | 'startLine'>): number {
  return finding.startLine ?? finding.line;
}
