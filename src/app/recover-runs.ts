import type { RunConclusion } from '../github/report/run-lifecycle.ts';
import type { InstallationAccess } from './installation-access.ts';
import { stateOf } from './store/run-states.ts';
import type { RunStore, StoredRun, SupersededApproval } from './store/run-store.ts';
import { supersededApprovalBody } from './supersede-approval-comment.ts';

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
  action: 'retry' | 'fail' | 'reported';
}

/** A check run conclusion GitHub may hold, as the run concluded that way. */
const reportedConclusions: Record<string, RunConclusion> = {
  success: 'success',
  neutral: 'neutral',
  skipped: 'neutral',
  failure: 'failure',
  action_required: 'failure',
  stale: 'failure',
  cancelled: 'cancelled',
  timed_out: 'timed_out',
};

/**
 * Takes over the runs whose worker stopped renewing its lease (a crash, a lost machine).
 *
 * A run whose worker had already concluded its check run (it died, or lost the database, between
 * reporting on GitHub and saving the result) is recorded as GitHub shows it and left alone there:
 * its work was done, and neither its check run nor its comment is rewritten. Any other run is queued
 * again while it has retries left, then failed. Either way the lease epoch moves on, so the old
 * worker's late writes are rejected, its pending approvals are superseded (their comments say so,
 * and an answer to one later is told; see `supersededApprovalBody`), and its check run is concluded
 * (`failure` with the reason when failed; `neutral` when retried, as the retry makes a new one), with
 * a note in the tracking comment: nothing stays `in_progress`.
 */
export async function recoverRuns(deps: RecoverDeps): Promise<RecoveredRun[]> {
  const now = deps.now ?? Date.now;
  const retries = deps.retries ?? 1;
  const recovered: RecoveredRun[] = [];
  for (const expired of await deps.store.expiredRuns(now())) {
    const owner = expired.leaseOwner ?? 'its worker';
    const reported = await reportedConclusion(deps, expired);
    if (reported !== undefined) {
      const reason = `${owner} stopped after it concluded the check run ${reported}; recorded so, not retried`;
      const outcome = { state: stateOf(reported), conclusion: reported };
      const run = await deps.store.recover(expired.id, expired.leaseEpoch, 'reported', reason, outcome);
      if (run === undefined) continue;
      deps.log(`recovered run ${run.id}: reported (${reason})`);
      recovered.push({ run, action: 'reported' });
      await deps.store.supersedeApprovals(
        run.id,
        `the run had already concluded ${reported}. Answers to it do not count.`,
      );
      continue;
    }
    const action = expired.attempts >= retries ? 'fail' : 'retry';
    const reason =
      action === 'retry'
        ? `${owner} stopped renewing its lease; the run is queued again`
        : `${owner} stopped renewing its lease and the run had no retry left`;
    const run = await deps.store.recover(expired.id, expired.leaseEpoch, action, reason);
    if (run === undefined) continue; // another replica took it over first
    deps.log(`recovered run ${run.id}: ${action} (${reason})`);
    recovered.push({ run, action });
    const superseded = await deps.store.supersedeApprovals(run.id, supersededNote(expired, action, reason));
    await concludeOnGitHub(deps, expired, action, reason);
    await editSuperseded(deps, expired, superseded);
  }
  return recovered;
}

/**
 * The conclusion of the run's check run when its worker had concluded it, else undefined (none yet,
 * still in progress, or GitHub could not be read: then the run is retried or failed as before).
 */
async function reportedConclusion(deps: RecoverDeps, run: StoredRun): Promise<RunConclusion | undefined> {
  if (run.installationId === undefined || run.checkRunId === undefined) return undefined;
  try {
    const api = await deps.access.api(run.installationId);
    const check = await api.getCheckRun(run.job.repo, run.checkRunId);
    if (check.status !== 'completed' || check.conclusion === null) return undefined;
    return reportedConclusions[check.conclusion] ?? 'failure';
  } catch (error) {
    deps.log(
      `recovered run ${run.id}: could not read its check run, so it is treated as unfinished: ${error instanceof Error ? error.message : error}`,
    );
    return undefined;
  }
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

/** Why a dead attempt's approval can no longer be answered, and where the run goes on. */
function supersededNote(run: StoredRun, action: 'retry' | 'fail', reason: string): string {
  const progress = run.commentId === undefined ? '' : ` (see [the run's progress](#issuecomment-${run.commentId}))`;
  return action === 'retry'
    ? `this request belonged to an attempt whose worker stopped (${reason}). The run was queued again${progress}: its new attempt asks again in a new request, and answers to this one do not count.`
    : `this request belonged to an attempt whose worker stopped, and the run failed (${reason})${progress}. Answers to it do not count.`;
}

async function editSuperseded(deps: RecoverDeps, run: StoredRun, superseded: readonly SupersededApproval[]) {
  if (run.installationId === undefined || superseded.length === 0) return;
  try {
    const api = await deps.access.api(run.installationId);
    for (const approval of superseded) {
      const comment = await api.getComment(run.job.repo, approval.commentId);
      await api.updateComment(run.job.repo, approval.commentId, supersededApprovalBody(comment.body, approval.reason));
    }
  } catch (error) {
    deps.log(
      `recovered run ${run.id}: could not mark its approvals superseded: ${error instanceof Error ? error.message : error}`,
    );
  }
}
