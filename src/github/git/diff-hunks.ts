/** One hunk of a unified diff. */
export interface DiffHunk {
  /** First line of the old side (the line before, for a hunk that only adds). */
  oldStart: number;
  /** Lines of the old side in the hunk (0 when it only adds). */
  oldLines: number;
  /** First line of the new side (the line before, for a hunk that only deletes). */
  newStart: number;
  /** Lines of the new side in the hunk (0 when it only deletes). */
  newLines: number;
  /** The added lines' text, without the `+`. */
  added: string[];
  /** True when a `\ No newline at end of file` marker is in the hunk. */
  noNewlineMarker: boolean;
}

const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The hunks of one file's unified diff (a `git diff` section, or the `patch` of GitHub's
 * "list pull request files", which starts at the first `@@`). Lines before the first hunk header
 * (`diff --git`, `index`, `---`, `+++`) are skipped.
 */
export function parseDiffHunks(patch: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: DiffHunk | undefined;
  for (const line of patch.split('\n')) {
    const match = header.exec(line);
    if (match) {
      current = {
        oldStart: Number(match[1]),
        oldLines: match[2] === undefined ? 1 : Number(match[2]),
        newStart: Number(match[3]),
        newLines: match[4] === undefined ? 1 : Number(match[4]),
        added: [],
        noNewlineMarker: false,
      };
      hunks.push(current);
      continue;
    }
    if (current === undefined) continue;
    if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('\\')) current.noNewlineMarker = true;
  }
  return hunks;
}

/** The new-side line ranges (`[first, last]`, 1-based, inclusive) a diff shows: where review comments may go. */
export function newSideRanges(hunks: readonly DiffHunk[]): [number, number][] {
  return hunks.filter((h) => h.newLines > 0).map((h) => [h.newStart, h.newStart + h.newLines - 1]);
}
