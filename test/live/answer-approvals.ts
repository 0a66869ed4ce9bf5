import { createApprovalPoller } from '../../src/github/approvals/approval-poller.ts';
import { systemClock } from '../../src/github/pacing/clock.ts';
import type { ExecuteRunOptions } from '../../src/github/use-cases/execute-run-options.ts';
import type { RunJob } from '../../src/github/use-cases/run-job.ts';
import { type GitHubWorld, SELF_LOGIN } from '../support/github-world.ts';

/**
 * `executeRun`'s `attachApprovals` for live tests: the approval poller on issue `number`, and a
 * maintainer (`bob`) who answers every approval the run asks with `/approve <id>` (or `/deny <id>`),
 * as a comment on the fake GitHub. `answered` collects the ids answered.
 */
export function answerApprovals(
  w: GitHubWorld,
  job: RunJob,
  number: number,
  answer: 'approve' | 'deny',
  answered: string[],
): NonNullable<ExecuteRunOptions['attachApprovals']> {
  return (channel) => {
    const poller = createApprovalPoller({
      api: w.api,
      repo: w.repo,
      number,
      isPullRequest: false,
      channel,
      phrase: job.config.trigger.phrase,
      agents: Object.keys(job.config.agents),
      selfLogins: [SELF_LOGIN],
      since: job.requestedAt,
      intervalMs: 50,
      clock: systemClock,
    });
    poller.start();
    const watcher = setInterval(() => {
      for (const pending of channel.pending) {
        if (answered.includes(pending.approvalId)) continue;
        answered.push(pending.approvalId);
        const body =
          answer === 'approve' ? `/approve ${pending.approvalId}` : `/deny ${pending.approvalId} not this time`;
        w.gh.state.addComment(w.repo, number, { body, user: 'bob' });
      }
    }, 20);
    return () => {
      clearInterval(watcher);
      poller.stop();
    };
  };
}
