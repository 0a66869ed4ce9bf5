import type { ChangedFile } from '../git/collect-changes.ts';
import { newSideRanges, parseDiffHunks } from '../git/diff-hunks.ts';
import { longestBacktickRun } from '../report/markdown.ts';

/** One file the agent changed, as `suggestionsFromDiff` needs it. */
export interface SuggestedFileChange {
  path: string;
  status: ChangedFile['status'];
  /** The agent's change as a `--unified=0` diff against the pull request's head; undefined for a binary file. */
  patch: string | undefined;
  /** The file's lines at the pull request's head (for the line a pure insertion is anchored on). */
  headLines: readonly string[];
}

/** One file of the pull request's own diff (GitHub's "list pull request files"). */
export interface PullFilePatch {
  path: string;
  /** Undefined when GitHub shows no diff for it (binary, too large). */
  patch: string | undefined;
}

/** A review comment holding a suggestion block, on the new side (`RIGHT`) of the pull request's diff. */
export interface Suggestion {
  path: string;
  /** First line of a multi-line comment; undefined for one line. */
  startLine?: number;
  line: number;
  body: string;
}

/** The suggestions for a change, or why it cannot be given as suggestions. */
export type SuggestionPlan =
  | { fits: true; suggestions: Suggestion[]; changedLines: number }
  | { fits: false; reason: string };

/**
 * Turns the agent's change into GitHub suggestion blocks on the pull request's diff. Every hunk
 * becomes one comment replacing the lines it changes (a pure insertion is anchored on the line before
 * it, or after it at the top of a file); a comment may only cover lines the pull request's diff shows
 * (one of its hunks on the new side), since GitHub refuses review comments elsewhere. The change does
 * not fit, and nothing is suggested, when any file is added, deleted, renamed or binary, when any hunk
 * falls outside the pull request's diff, touches a missing final newline or holds a carriage return.
 * Pure: no I/O.
 */
export function suggestionsFromDiff(
  changes: readonly SuggestedFileChange[],
  pullFiles: readonly PullFilePatch[],
): SuggestionPlan {
  const suggestions: Suggestion[] = [];
  let changedLines = 0;
  for (const change of changes) {
    if (change.status !== 'modified') return { fits: false, reason: `${change.path} is ${change.status}` };
    const hunks = change.patch === undefined ? [] : parseDiffHunks(change.patch);
    if (hunks.length === 0) return { fits: false, reason: `${change.path} has no text diff` };
    const prPatch = pullFiles.find((f) => f.path === change.path)?.patch;
    if (prPatch === undefined) return { fits: false, reason: `${change.path} is not in the pull request's diff` };
    const ranges = newSideRanges(parseDiffHunks(prPatch));
    let lastLine = 0;
    for (const hunk of hunks) {
      if (hunk.noNewlineMarker) return { fits: false, reason: `${change.path} changes a missing final newline` };
      let start: number;
      let end: number;
      let content: string[];
      if (hunk.oldLines > 0) {
        start = hunk.oldStart;
        end = hunk.oldStart + hunk.oldLines - 1;
        content = hunk.added;
      } else {
        const anchor = Math.max(hunk.oldStart, 1);
        const anchorText = change.headLines[anchor - 1];
        if (anchorText === undefined) return { fits: false, reason: `${change.path} is empty at the head` };
        start = anchor;
        end = anchor;
        content = hunk.oldStart === 0 ? [...hunk.added, anchorText] : [anchorText, ...hunk.added];
      }
      if (content.some((line) => line.includes('\r'))) {
        return { fits: false, reason: `${change.path} has carriage returns` };
      }
      if (start <= lastLine) return { fits: false, reason: `${change.path}: hunks overlap at line ${start}` };
      if (!ranges.some(([first, last]) => first <= start && end <= last)) {
        return {
          fits: false,
          reason: `${change.path}:${start === end ? start : `${start}-${end}`} is outside the pull request's diff`,
        };
      }
      lastLine = end;
      changedLines += hunk.added.length + hunk.oldLines;
      suggestions.push({
        path: change.path,
        ...(start === end ? {} : { startLine: start }),
        line: end,
        body: suggestionBlock(content),
      });
    }
  }
  if (suggestions.length === 0) return { fits: false, reason: 'nothing to suggest' };
  return { fits: true, suggestions, changedLines };
}

/** A ```` ```suggestion ```` block replacing the commented lines with `lines`; its fence is longer than any backtick run in them. */
export function suggestionBlock(lines: readonly string[]): string {
  const longest = Math.max(0, ...lines.map(longestBacktickRun));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return lines.length === 0 ? `${fence}suggestion\n${fence}` : `${fence}suggestion\n${lines.join('\n')}\n${fence}`;
}
