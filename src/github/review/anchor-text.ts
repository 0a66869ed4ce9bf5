/**
 * A finding's anchor: the code it is about, as text, so that it is found again after lines above
 * it moved (a push that adds or removes lines elsewhere) and known to be gone once that code
 * changed. Whitespace is normalized: re-indenting code does not make a finding new.
 */

/** The normalized text of lines `first..last` (1-based) of `content`, or undefined when they are not all there. */
export function anchorText(content: string, first: number, last: number): string | undefined {
  const lines = content.split('\n');
  if (first < 1 || last > lines.length || first > last) return undefined;
  return normalizeLines(lines.slice(first - 1, last));
}

/**
 * Where the anchor is in `content` now: the first line of the occurrence nearest to `nearLine`, or
 * undefined when the code is no longer there.
 */
export function locateAnchor(content: string, anchor: string, nearLine: number): number | undefined {
  const lines = content.split('\n').map(normalizeLine);
  const wanted = anchor.split('\n');
  const size = wanted.length;
  let best: number | undefined;
  for (let start = 0; start + size <= lines.length; start += 1) {
    let same = true;
    for (let offset = 0; offset < size && same; offset += 1) same = lines[start + offset] === wanted[offset];
    if (!same) continue;
    const line = start + 1;
    if (best === undefined || Math.abs(line - nearLine) < Math.abs(best - nearLine)) best = line;
  }
  return best;
}

function normalizeLines(lines: readonly string[]): string {
  return lines.map(normalizeLine).join('\n');
}

function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}
