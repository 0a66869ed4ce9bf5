/**
 * Which lines of a pull request's head GitHub lets a review comment sit on: the lines of the
 * diff's hunks on the RIGHT side (added or context lines), per file. A finding on any other line
 * goes into the review's body instead.
 */
export class DiffAnchors {
  readonly #lines = new Map<string, Set<number>>();

  /** From `GET /pulls/{n}/files`: each file's name and unified-diff `patch` (absent for a binary or huge file). */
  static fromFiles(files: readonly { filename: string; patch?: string | null; status?: string }[]): DiffAnchors {
    const anchors = new DiffAnchors();
    for (const file of files) {
      if (file.status === 'removed') continue;
      anchors.#lines.set(file.filename, rightSideLines(file.patch ?? ''));
    }
    return anchors;
  }

  /** Whether the pull request changes `path` at all. */
  touches(path: string): boolean {
    return this.#lines.has(path);
  }

  /** Whether every line `first..last` of `path` is on the diff (a multi-line comment needs all of them in one hunk's reach). */
  covers(path: string, first: number, last: number): boolean {
    const lines = this.#lines.get(path);
    if (!lines) return false;
    for (let line = first; line <= last; line += 1) if (!lines.has(line)) return false;
    return true;
  }

  paths(): string[] {
    return [...this.#lines.keys()];
  }
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The new file's line numbers a unified diff shows: `+` and ` ` lines of each hunk. */
export function rightSideLines(patch: string): Set<number> {
  const lines = new Set<number>();
  let next = 0;
  for (const text of patch.split('\n')) {
    const header = HUNK_HEADER.exec(text);
    if (header) {
      next = Number(header[1]);
      continue;
    }
    if (next === 0) continue;
    const kind = text[0];
    if (kind === '+' || kind === ' ') {
      lines.add(next);
      next += 1;
    }
    // '-' lines and '\ No newline at end of file' take no new-file line.
  }
  return lines;
}
