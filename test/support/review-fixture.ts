/**
 * The pull request the review tests review: a `sum` whose total is one too high, and the blocker
 * a reviewer reports on it (with the suggestion that fixes it).
 */
export const SUM_CODE = [
  'export function sum(xs) {',
  '  let total = 0;',
  '  for (const x of xs) total += x;',
  '  return total + 1;',
  '}',
  '',
].join('\n');

export const OFF_BY_ONE = {
  path: 'src/sum.ts',
  line: 4,
  severity: 'blocker',
  title: 'Off by one: the total is one too high',
  body: 'The `+ 1` makes every sum wrong.',
  suggestion: '  return total;',
};

/** The Process-protocol reviewer that reports `$REVIEW_FINDINGS` through `report_finding`. */
export const REVIEWER_AGENT = new URL('../fixtures/bin/reviewer-agent.mjs', import.meta.url).pathname;
