/**
 * The edit distance of two words: insertions, deletions and substitutions each count 1; with
 * `swaps` (the default), so does swapping two neighbouring characters (`adpater` is 1 from
 * `adapter`), otherwise a swap counts 2.
 */
export function editDistance(a: string, b: string, { swaps = true }: { swaps?: boolean } = {}): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate the user probably meant by `word`: the closest one within a third of the word's
 * length (at least 1), else the only candidate that `word` is the beginning of; undefined when
 * none is close. Ties go to the candidate listed first.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  if (best) return best.candidate;
  const extensions = word.length >= 2 ? candidates.filter((c) => c.startsWith(word)) : [];
  return extensions.length === 1 ? extensions[0] : undefined;
}

/**
 * The known name nearest to `name`: the same ignoring case, `_` and `-`, or else the first
 * nearest within an edit distance (swaps counting 2) of at most 2, and less for short names.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const normal = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const exact = known.find((k) => normal(k) === normal(name));
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.ceil(name.length / 3) + 1);
  for (const candidate of known) {
    const d = editDistance(normal(name), normal(candidate), { swaps: false });
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
