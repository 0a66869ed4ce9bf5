import type { ProgressStep } from './progress-types.ts';

/**
 * Tools that write files, by the names agents give them (agent-mux's own, Claude Code's, Pi's,
 * Gemini's and Qwen's, Codex's, OpenCode's): one that succeeded in a run that changed no file wrote
 * somewhere else than the checkout (a remote host's own directory, a sandbox's copy).
 */
const WRITING = new Set([
  'write_file',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'write',
  'edit',
  'patch',
  'apply_patch',
  'replace',
  'str_replace',
  'str_replace_based_edit_tool',
  'create_file',
]);

/** The bare tool name of `mcp__<server>__<tool>`, `<server>_<tool>` of the run's server, and `server/tool`. */
function bareName(tool: string): string {
  return tool
    .replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '')
    .replace(/^agent-mux_/, '')
    .replace(/^[^/]+\//, '');
}

/** A file name as agents write it: a path with an extension, or a dotfile, optionally in backticks. */
const FILE = String.raw`\x60?((?:[\w.-]+\/)*(?:[\w-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,10}|\.[\w-]+(?:\.[A-Za-z0-9]{1,10})?))\x60?`;
const VERBS = 'created|added|wrote|written|updated|modified|edited|changed|saved|fixed';

/**
 * The agent's own claims of a change, in its first person or as a report: "I created `GREETING.md`",
 * "I've updated src/a.ts", "Created GREETING.md." at a sentence's start, "`a.ts` has been updated".
 * A sentence about the code's history ("the bug was added in a.ts") is not a claim.
 */
const CLAIMS = [
  new RegExp(
    String.raw`\bI(?:'ve|’ve| have)?\s+(?:now\s+|just\s+|also\s+)?(?:${VERBS})\s+(?:(?:the|a|an|new)\s+)?(?:file\s+)?${FILE}`,
    'gi',
  ),
  new RegExp(String.raw`(?:^|[.!\n]\s*|^\s*[-*]\s+)(?:${VERBS})\s+(?:(?:the|a|an|new)\s+)?(?:file\s+)?${FILE}`, 'gim'),
  new RegExp(String.raw`${FILE}\s+(?:has|have)\s+been\s+(?:${VERBS})\b`, 'gi'),
  // "… and added tests/a.test.ts": a second change in the same claim.
  new RegExp(String.raw`\b(?:and|then)\s+(?:also\s+)?(?:${VERBS})\s+(?:(?:the|a|an|new)\s+)?(?:file\s+)?${FILE}`, 'gi'),
];

/** The files the agent's final message says it changed (each once, in order). */
export function claimedFiles(text: string): string[] {
  const found: string[] = [];
  for (const pattern of CLAIMS) {
    for (const match of text.matchAll(pattern)) {
      const file = match[1]?.replace(/[.,;:]+$/, '');
      if (file && /[A-Za-z]/.test(file) && !found.includes(file)) found.push(file);
    }
  }
  return found;
}

/** The agent's write steps that succeeded. */
export function succeededWrites(steps: readonly ProgressStep[]): string[] {
  return steps
    .filter((step) => step.kind === 'tool' && step.state === 'done' && WRITING.has(bareName(step.tool)))
    .map((step) => step.title);
}

const listed = (items: readonly string[]) => {
  const shown = items.slice(0, 3).map((item) => `\`${item.replace(/`/g, "'")}\``);
  return `${shown.join(', ')}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
};

/**
 * Why a run that changed no file in the checkout is not a success although the agent wrote or said
 * it did: its writes succeeded elsewhere (a remote host's directory, a sandbox), or it reported
 * writing a file the checkout does not have (a sandbox refused the command without a trace).
 * `exists` tells whether a path (relative to the checkout, as the agent wrote it) is there: a file
 * it names that exists may be one an earlier turn made. Undefined: it neither wrote nor claimed to
 * (a question answered).
 */
export function unseenChangesReason(
  steps: readonly ProgressStep[],
  finalText: string,
  exists: (path: string) => boolean,
): string | undefined {
  const writes = succeededWrites(steps);
  if (writes.length > 0) {
    return `the agent's writes succeeded (${listed(writes)}) but the checkout has no change: they went to another directory (a remote host's, a sandbox's)`;
  }
  const claimed = claimedFiles(finalText).filter((file) => !exists(file));
  if (claimed.length > 0) {
    return `the agent said it wrote ${listed(claimed)}, but the checkout has no such file and no change: its commands may have run elsewhere or been refused without a trace (a broken sandbox, a remote host's own directory)`;
  }
  return undefined;
}
