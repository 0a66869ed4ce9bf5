import { createHash } from 'node:crypto';

/**
 * A finding's fingerprint: its file, the code it is anchored to and its title's words. The same
 * finding raised again on a later push (same code, lines moved) has the same fingerprint.
 */
export function findingFingerprint(path: string, anchor: string, title: string): string {
  return createHash('sha256')
    .update(`${path}\0${anchor}\0${[...titleWords(title)].sort().join(' ')}`)
    .digest('hex')
    .slice(0, 16);
}

/** The lowercase words of a title (letters and digits), without the shortest filler words. */
export function titleWords(title: string): Set<string> {
  return new Set(title.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []);
}

/** How alike two titles are: shared words over all words (0 to 1). */
export function titleSimilarity(a: string, b: string): number {
  const left = titleWords(a);
  const right = titleWords(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}
