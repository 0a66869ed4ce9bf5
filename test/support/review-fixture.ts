import type { GitHubWorld } from './github-world.ts';
import { webhookPayload } from './webhook-payload.ts';

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

/**
 * The `pull_request` webhook GitHub sends for pull request #7 ("Add sum", head branch `feature`) of
 * the world, on its current head (`opened`, `synchronize`, …).
 */
export function pullRequestPayload(
  w: GitHubWorld,
  action: string,
  options: { sender?: string; draft?: boolean } = {},
): Record<string, unknown> {
  const payload = webhookPayload('pull_request', action, {
    owner: w.repo.owner,
    repo: w.repo.repo,
    defaultBranch: 'main',
    login: options.sender ?? 'alice',
    number: 7,
    title: 'Add sum',
  });
  const pull = payload.pull_request as Record<string, unknown>;
  pull.draft = options.draft ?? false;
  pull.head = { ...(pull.head as object), sha: w.gh.state.pull(w.repo, 7)?.headSha, ref: 'feature' };
  return payload;
}

/**
 * A repository config whose agent `reviewer` is the Process-protocol reviewer, reporting `findings`
 * when given (else what `$REVIEW_FINDINGS` of the run's environment says), and `review` lines.
 */
export function reviewerConfig(review: readonly string[], findings?: readonly unknown[]): string {
  return [
    'agents:',
    '  reviewer:',
    '    adapter: process',
    '    options:',
    `      binary: ${process.execPath}`,
    `      args: [${REVIEWER_AGENT}]`,
    ...(findings === undefined ? [] : ['      env:', `        REVIEW_FINDINGS: '${JSON.stringify(findings)}'`]),
    'review:',
    ...review.map((line) => `  ${line}`),
    '',
  ].join('\n');
}
