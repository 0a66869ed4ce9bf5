import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../../../src/github/git/collect-changes.ts';
import type { PublishedResult } from '../../../../src/github/use-cases/publish-result.ts';
import { whereTheWorkIs } from '../../../../src/github/use-cases/run-steps/publish-spent-run.ts';

const file: ChangedFile = { path: 'hello.txt', status: 'added', firstLine: 1, additions: 1, deletions: 0 };
const published = (more: Partial<PublishedResult>): PublishedResult => ({ files: [file], note: '', ...more });

describe('whereTheWorkIs: where a spent run’s work so far went, for its reason', () => {
  it.each([
    ['nothing changed', published({ files: [] }), 13, 'it changed no file'],
    [
      'a branch and its pull request',
      published({ branch: 'agent-mux/12-hello', pullRequestUrl: 'https://github.com/o/r/pull/13' }),
      13,
      'its work so far is on branch agent-mux/12-hello (pull request #13)',
    ],
    [
      'a branch alone (git.pullRequests: false)',
      published({ branch: 'agent-mux/12-hello' }),
      undefined,
      'its work so far is on branch agent-mux/12-hello',
    ],
    [
      "a fork's pull request: suggestions",
      published({ fork: { kind: 'suggestions', reviewId: 7, reviewUrl: 'https://x/7', count: 2 } }),
      5,
      'its work so far is in review 7 as suggestions',
    ],
    [
      "a fork's pull request: a branch here, not the fork pull request's",
      published({ branch: 'agent-mux/5-fix', fork: { kind: 'branch', branch: 'agent-mux/5-fix', cloneUrl: 'u' } }),
      5,
      'its work so far is on branch agent-mux/5-fix',
    ],
    [
      "a fork's pull request: a pull request here",
      published({
        branch: 'agent-mux/5-fix',
        fork: { kind: 'pull_request', number: 9, url: 'https://x/9', branch: 'agent-mux/5-fix', cloneUrl: 'u' },
      }),
      5,
      'its work so far is on branch agent-mux/5-fix (pull request #9)',
    ],
  ])('%s', (_name, result, pullRequest, expected) => {
    expect(whereTheWorkIs(result, pullRequest)).toBe(expected);
  });
});
