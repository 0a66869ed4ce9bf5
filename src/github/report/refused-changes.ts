import type { ProgressStep } from './progress-types.ts';

/**
 * Tools that only read or report, by the names agents give them (agent-mux's own, Claude Code's,
 * Pi's, Gemini's, ACP kinds): their failure says nothing about a change the agent meant to make.
 */
const READING = new Set([
  'read_task',
  'read_file',
  'list_files',
  'comment',
  'report_progress',
  'mark_complete',
  'mark_failed',
  'approval_prompt',
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'read',
  'ls',
  'find',
  'grep',
  'glob',
  'search',
  'fetch',
  'think',
  'read_many_files',
  'list_directory',
  'search_file_content',
  'google_web_search',
  'web_fetch',
]);

/** The bare tool name of `mcp__<server>__<tool>` and `server/tool`. */
function bareName(tool: string): string {
  return tool.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '').replace(/^[^/]+\//, '');
}

/**
 * The agent's attempts to change something that were refused (a denied approval, a policy, a
 * sandbox) or failed: its tool steps that failed, leaving out tools that only read or report.
 * A run that changed no file after such attempts did not do what it tried (`neutral`, not ✅); a run
 * with none (a question answered, a read that failed) did.
 */
export function refusedChanges(steps: readonly ProgressStep[]): string[] {
  return steps
    .filter((step) => step.kind === 'tool' && step.state === 'failed' && !READING.has(bareName(step.tool)))
    .map((step) => step.title);
}

/** The reason a run that changed nothing after refused attempts gives, or undefined when it made none. */
export function changedNothingReason(steps: readonly ProgressStep[]): string | undefined {
  const refused = refusedChanges(steps);
  if (refused.length === 0) return undefined;
  const shown = refused.slice(0, 3).map((title) => `\`${title.replace(/`/g, "'")}\``);
  const more = refused.length > 3 ? ` and ${refused.length - 3} more` : '';
  return `the agent changed no files: ${refused.length === 1 ? 'its attempt' : `${refused.length} of its attempts`} to change them ${refused.length === 1 ? 'was' : 'were'} refused or failed (${shown.join(', ')}${more})`;
}
