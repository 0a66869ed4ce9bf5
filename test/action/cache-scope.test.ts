import { describe, expect, it } from 'vitest';
import { sharesDefaultBranchCache } from '../../src/action/run.ts';

describe('sharesDefaultBranchCache (issue 32.5: no restore on events a pull request’s author controls)', () => {
  it('comments, issues, pull_request_target and dispatches read the default branch’s cache scope', () => {
    for (const event of ['issue_comment', 'issues', 'pull_request_target', 'workflow_dispatch', 'schedule']) {
      expect(sharesDefaultBranchCache(event), event).toBe(true);
    }
  });
  it('pull request events read the merge ref’s scope, which the pull request’s own CI writes', () => {
    for (const event of ['pull_request', 'pull_request_review', 'pull_request_review_comment']) {
      expect(sharesDefaultBranchCache(event), event).toBe(false);
    }
  });
});
