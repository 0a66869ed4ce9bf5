import { BranchNameError } from './branch-name-error.ts';
import { isValidBranchName } from './is-valid-branch-name.ts';

/** The longest slug `branchName` makes from a title. */
export const maxSlugLength = 40;

/**
 * The branch for the work on an issue: `<prefix>/<issueNumber>-<slug>`, e.g.
 * `branchName('agent-mux', 12, 'Fix the flaky test!')` → `agent-mux/12-fix-the-flaky-test`. The slug
 * keeps the lowercased ASCII letters and digits of the title (accents stripped), joined by `-`, at
 * most `maxSlugLength` characters, cut at a word boundary where possible; it is left out when the
 * title has no such word. Throws `BranchNameError` when the prefix makes an invalid ref.
 */
export function branchName(prefix: string, issueNumber: number, title: string): string {
  const slug = slugify(title);
  const trimmedPrefix = prefix.replace(/\/+$/, '');
  const leaf = slug === '' ? `${issueNumber}` : `${issueNumber}-${slug}`;
  const name = trimmedPrefix === '' ? leaf : `${trimmedPrefix}/${leaf}`;
  if (!Number.isSafeInteger(issueNumber) || issueNumber < 0 || !isValidBranchName(name)) {
    throw new BranchNameError(name);
  }
  return name;
}

/** Latin letters that do not decompose into an ASCII letter and a mark. */
const transliterations: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };

/** Lowercased ASCII words of `text` joined by `-`, at most `maxLength` characters. */
export function slugify(text: string, maxLength = maxSlugLength): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđþ]/g, (letter) => transliterations[letter] ?? '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length <= maxLength) {
      slug = next;
      continue;
    }
    // A first word longer than the limit is cut; later words are dropped whole.
    if (slug === '') slug = word.slice(0, maxLength);
    break;
  }
  return slug;
}
