import type { InstallationAccess } from './installation-access.ts';
import type { RunStore, StoredRun } from './store/run-store.ts';

/** What recovery needs. */
export interface RecoverDeps {
  store: RunStore;
  access: InstallationAccess;
  log: (line: string) => void;
  /** How many times a run whose worker died is queued again before it fails. Default 1. */
  retries?: number;
  now?: () => number;
}

/** One run taken over by recovery. */
export interface RecoveredRun {
  run: StoredRun;
  action: 'retry' | 'fail';
}

/**
 * Takes over the runs whose worker stopped renewing its lease (a crash, a lost machine): each is
 * queued again while it has retries left, then failed. Either way the fencing token moves on, so
 * the old worker's late writes are rejected, its persisted approvals are dropped, and its check run
 * is concluded (`failure` with the reason when failed; `neutral` when retried, as the retry makes a
 * new one), with a note in the tracking comment: nothing stays `in_progress`.
 */
export async function recoverRuns(deps: RecoverDeps): Promise<RecoveredRun[]> {
  const now = deps.now ?? Date.now;
  const retries = deps.retries ?? 1;
  const recovered: RecoveredRun[] = [];
  for (const expired of await deps.store.expiredRuns(now())) {
    const action = expired.attempts >= retries ? 'fail' : 'retry';
    const owner = expired.leaseOwner ?? 'its worker';
    const reason =
      action === 'retry'
        ? `${owner} stopped renewing its lease; the run is queued again`
        : `${owner} stopped renewing its lease and the run had no retry left`;
    const run = await deps.store.recover(expired.id, expired.fencingToken, action, reason);
    if (run === undefined) continue; // another replica took it over first
    deps.log(`recovered run ${run.id}: ${action} (${reason})`);
    recovered.push({ run, action });
    for (const pending of await deps.store.pendingApprovals({ runId: run.id })) {
      await deps.store.removePendingApproval(pending.approvalId);
    }
    await concludeOnGitHub(deps, expired, action, reason);
  }
  return recovered;
}

async function concludeOnGitHub(
  deps: RecoverDeps,
  run: StoredRun,
  action: 'retry' | 'fail',
  reason: string,
): Promise<void> {
  if (run.installationId === undefined) return;
  const repo = run.job.repo;
  try {
    const api = await deps.access.api(run.installationId);
    if (run.checkRunId !== undefined) {
      await api.updateCheckRun(repo, run.checkRunId, {
        status: 'completed',
        conclusion: action === 'fail' ? 'failure' : 'neutral',
        completedAt: new Date().toISOString(),
        output: {
          title: action === 'fail' ? `${run.job.agentName}: failed` : `${run.job.agentName}: retried`,
          summary: `The worker running this stopped: ${reason}.`,
        },
        actions: [],
      });
    }
    if (run.commentId !== undefined) {
      const comment = await api.getComment(repo, run.commentId);
      const note =
        action === 'fail'
          ? `**agent-mux** run failed: ${reason}.`
          : `**agent-mux**: the worker stopped (${reason}); a new attempt follows.`;
      await api.updateComment(repo, run.commentId, `${comment.body}\n\n---\n${note}`);
    }
  } catch (error) {
    deps.log(`recovered run ${run.id}: could not update GitHub: ${error instanceof Error ? error.message : error}`);
  }
}
