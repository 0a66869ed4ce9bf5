import type { GitHubApi } from '../github/github-api.ts';
import type { RunJob } from '../github/use-cases/run-job.ts';
import { conversationKeyOf } from './conversation-key.ts';
import type { DispatchDeps, DispatchResult } from './dispatch-deps.ts';
import { limitKey } from './limit-key.ts';
import type { StoredEvent } from './store/run-store.ts';

/** Queues the run a trigger asked for, with the repository config's `concurrency.perIssue`. */
export async function queueRun(
  deps: Pick<DispatchDeps, 'store' | 'log'>,
  api: GitHubApi,
  event: Pick<StoredEvent, 'deliveryId'> & { installationId: number },
  job: RunJob,
): Promise<DispatchResult> {
  // A turn on the pull request opened for an issue waits for the issue's turns, and they for it.
  const conversationKey = await conversationKeyOf(api, job, deps.log);
  const { run, cancelled } = await deps.store.enqueue({
    job,
    installationId: event.installationId,
    adapter: limitKey(job.config, job.agentName),
    perIssue: job.config.concurrency.perIssue,
    deliveryId: event.deliveryId,
    ...(conversationKey ? { conversationKey } : {}),
  });
  deps.log(`queued run ${run.id} (${job.agentName}) for ${run.issueKey}`);
  return { kind: 'enqueued', runId: run.id, cancelled };
}
