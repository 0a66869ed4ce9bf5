import { openInWorkspace } from '../../core/tools/builtin/open-in-workspace.ts';
import { ToolError } from '../../core/tools/tool-error.ts';
import { defineTool } from '../../core/tools/tool-registry.ts';
import { findingSchema } from './finding.ts';
import type { FindingCollector } from './finding-collector.ts';

export const REPORT_FINDING = 'report_finding';

/** The largest file a finding may point into (a review reads source files, not data). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * `report_finding`: how an agent reviewing a pull request reports one finding. The input is
 * checked (schema, the file exists in the checkout of the head, the lines are in it); what is
 * wrong comes back as a tool error the agent can correct. Accepted findings go to `collector`;
 * the answer says whether the finding will sit on its diff lines or in the review's body.
 */
export function reportFindingTool(collector: FindingCollector) {
  return defineTool({
    name: REPORT_FINDING,
    description:
      "Reports one review finding on the pull request's head: the file (relative path), the line (or startLine..line), severity (blocker, major, minor, nit), a one-line title, an explanation, and optionally `suggestion`, the exact replacement text for those lines. Call it once per finding; don't repeat findings in your final answer.",
    input: findingSchema,
    handler: async (finding, ctx) => {
      const outside = collector.outOfScope(finding);
      if (outside !== undefined) throw new ToolError(REPORT_FINDING, outside);
      const opened = await openInWorkspace(ctx.workspacePath, finding.path, 'read', REPORT_FINDING).catch(
        (error: Error) => {
          throw new ToolError(
            REPORT_FINDING,
            `${finding.path} is not a file of the pull request's head: ${error.message}`,
          );
        },
      );
      let content: string;
      try {
        const { size } = await opened.handle.stat();
        if (size > MAX_FILE_BYTES)
          throw new ToolError(REPORT_FINDING, `${finding.path} is too large to review (${size} bytes)`);
        content = await opened.handle.readFile('utf8');
      } finally {
        await opened.handle.close();
      }
      const lines = content.endsWith('\n') ? content.split('\n').length - 1 : content.split('\n').length;
      if (finding.line > lines) {
        throw new ToolError(REPORT_FINDING, `line ${finding.line} is past the end of ${finding.path} (${lines} lines)`);
      }
      const { placement, duplicate, full } = collector.add(finding, content);
      if (full)
        throw new ToolError(
          REPORT_FINDING,
          'this review already has as many findings as it may post; report only the most serious',
        );
      return {
        recorded: !duplicate,
        ...(duplicate ? { note: 'already reported' } : {}),
        shownOn:
          placement === 'inline'
            ? 'the diff line'
            : "the review's body (the line is not part of the pull request's changes)",
      };
    },
  });
}
