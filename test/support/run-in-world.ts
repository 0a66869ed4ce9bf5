import type { AgentEvent } from '../../src/core/events/index.ts';
import type { AdapterRegistry } from '../../src/core/registry/adapter-registry.ts';
import { createApprovalPoller } from '../../src/github/approvals/approval-poller.ts';
import type { GitHubApprovalChannel } from '../../src/github/approvals/github-approval-channel.ts';
import { systemClock } from '../../src/github/pacing/clock.ts';
import { executeRun, type RunOutcome } from '../../src/github/use-cases/execute-run.ts';
import type { RunJob } from '../../src/github/use-cases/run-job.ts';
import { type GitHubWorld, SELF_LOGIN, WORLD_TOKEN } from './github-world.ts';

/**
 * Runs `job` in the world the way a front end does: `executeRun` on the world's workspace with its
 * token, approvals read from the job's issue or pull request by the comment poller (every 20 ms).
 * Every 10 ms while the run waits, `answer` sees the channel, to answer what is pending as the test
 * wants (see {@link approveEachAs}). `env` is the agent's environment (default: a copy of this
 * process's).
 */
export function runInWorld(
  w: GitHubWorld,
  job: RunJob,
  options: {
    answer: (channel: GitHubApprovalChannel) => void;
    env?: Record<string, string | undefined>;
    registry?: () => AdapterRegistry;
    /** The poller's interval (default 20 ms). */
    intervalMs?: number;
    onEvent?: (event: AgentEvent) => void;
    signal?: AbortSignal;
  },
): Promise<RunOutcome> {
  return executeRun({
    deps: w.deps,
    job,
    registry: (options.registry ?? w.registry)(),
    workspace: w.workspace,
    git: { token: WORLD_TOKEN, author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
    env: options.env ?? { ...process.env },
    secrets: [WORLD_TOKEN],
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    attachApprovals: (channel, run) => {
      const poller = createApprovalPoller({
        ...(run.steering ? { steering: run.steering } : {}),
        api: w.api,
        repo: w.repo,
        number: job.number ?? 0,
        isPullRequest: job.isPullRequest,
        channel,
        phrase: job.config.trigger.phrase,
        agents: Object.keys(job.config.agents),
        selfLogins: [SELF_LOGIN],
        since: job.requestedAt,
        intervalMs: options.intervalMs ?? 20,
        clock: systemClock,
      });
      poller.start();
      const watcher = setInterval(() => options.answer(channel), 10);
      return () => {
        clearInterval(watcher);
        poller.stop();
      };
    },
  });
}

/** An `answer` for {@link runInWorld}: `user` comments `/approve <id>` on issue `number` once for each approval asked. */
export function approveEachAs(w: GitHubWorld, number: number, user: string): (channel: GitHubApprovalChannel) => void {
  const answered = new Set<string>();
  return (channel) => {
    for (const { approvalId } of channel.pending) {
      if (answered.has(approvalId)) continue;
      answered.add(approvalId);
      w.gh.state.addComment(w.repo, number, { body: `/approve ${approvalId}`, user });
    }
  };
}
