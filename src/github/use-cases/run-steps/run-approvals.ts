import type { ApprovalChannel } from '../../../core/tools/approval-channel.ts';
import { autoApprovalChannel } from '../../../core/tools/auto-approval-channel.ts';
import { createGitHubApprovalChannel, type GitHubApprovalChannel } from '../../approvals/github-approval-channel.ts';
import { humanDuration } from '../../report/human-duration.ts';
import type { RunSteering } from '../../steering/run-steering.ts';
import { UNATTENDED_NOTE, UNATTENDED_REASON } from '../unattended-run.ts';
import type { RunContext } from './plan-run.ts';
import type { RunReports } from './run-reports.ts';
import type { RunTarget } from './run-target.ts';

/** Where a run's approvals are asked and answered. */
export interface RunApprovals {
  /** The channel the agent's and the tool host's asks go to. */
  channel: ApprovalChannel;
  /** The GitHub channel, for a run on an issue or pull request (undefined for a dispatched run). */
  github: GitHubApprovalChannel | undefined;
  timeoutMs: number;
  /** Ends the approvals when the run ends: pending asks voided, the front end's poller detached. */
  close(): Promise<void>;
}

/**
 * A run on an issue or pull request asks on GitHub (bound to the head commit, answered by the
 * configured approvers), handed to the front end's poller once the check run exists. A
 * dispatched run with no issue or pull request has nowhere to ask: what the policy would ask
 * about is denied at once, with that reason, said before the agent starts.
 */
export function runApprovals(
  ctx: RunContext,
  reports: RunReports,
  target: RunTarget,
  steering?: RunSteering,
): RunApprovals {
  const { options, api, job } = ctx;
  const { repo } = job;
  const timeoutMs = options.approvalTimeoutMs ?? job.config.approvals.timeout;
  if (job.number === undefined) {
    reports.note(UNATTENDED_NOTE);
    return {
      channel: autoApprovalChannel('deny', { by: 'agent-mux', reason: UNATTENDED_REASON }),
      github: undefined,
      timeoutMs,
      close: async () => {},
    };
  }
  const { pull, branch, headSha } = target;
  const github = createGitHubApprovalChannel({
    // An approval asked before the tracking comment exists waits for it, so the comments read in order.
    api: {
      ...api,
      createComment: async (...args) => {
        await reports.reporting;
        return api.createComment(...args);
      },
    },
    repo,
    number: job.number,
    isPullRequest: job.isPullRequest,
    agent: job.agentName,
    rule: job.config.approvals,
    requestReview: job.config.approvals.requestReview,
    currentHead: async () =>
      pull
        ? (await api.getPull(repo, pull.number)).headSha
        : ((await api.getBranchSha(repo, branch?.name ?? job.defaultBranch)) ?? headSha),
    selfLogins: options.deps.selfLogins,
    redact: (text) => ctx.secrets.redactor.redactString(text),
    timeoutText: humanDuration(timeoutMs),
    onNote: (line) => reports.note(line),
  });
  let ended = false;
  let detach: (() => void) | undefined;
  const attach = options.attachApprovals;
  if (attach) {
    reports.reporting.then(
      ({ base }) => {
        if (!ended) {
          detach = attach(github, {
            runId: ctx.runId,
            checkRunId: base.checkRunId,
            ...(steering === undefined ? {} : { steering }),
          });
        }
      },
      () => {},
    );
  }
  return {
    channel: github,
    github,
    timeoutMs,
    async close() {
      ended = true;
      detach?.();
      await github.voidPending('the run ended');
    },
  };
}
