import { approvalActions } from '../github/approvals/approval-buttons.ts';
import type { GitHubApprovalChannel, PendingApproval } from '../github/approvals/github-approval-channel.ts';
import type { GitHubApi, RepoRef } from '../github/github-api.ts';
import type { RunSteering } from '../github/steering/run-steering.ts';
import type { Lease, RunStore } from './store/run-store.ts';
import { linkSupersededComment } from './supersede-approval-comment.ts';

/** Options of `bridgeApprovals`. */
export interface BridgeApprovalsOptions {
  store: RunStore;
  /** The worker's current lease (renewals replace it). */
  lease: () => Lease;
  runId: string;
  issueKey: string;
  channel: GitHubApprovalChannel;
  api: Pick<GitHubApi, 'updateCheckRun' | 'getComment' | 'updateComment'>;
  repo: RepoRef;
  checkRunId: number;
  /** Where mentions made during the run go (the running agent); absent, they are dropped here. */
  steering?: Pick<RunSteering, 'offer'>;
  /** How often answers are read from the store. Default 300 ms. */
  intervalMs?: number;
  /** Answers recorded before this time (ms) belong to an earlier run and are dropped. Default: now. */
  since?: number;
  log?: (line: string) => void;
}

/** A running bridge: `detach` stops reading; `close` waits for the last write and clears what it left. */
export interface ApprovalBridge {
  detach(): void;
  close(): Promise<void>;
}

/**
 * Connects a run's approval channel to the store, which is how answers reach it in the app: a
 * webhook handler on any replica records an answer (comment, review, check-run button) or a void
 * (new push) for the issue; this loop takes them every `intervalMs` and feeds `channel.answer` /
 * `channel.voidPending`. It also persists the pending approvals (`savePendingApproval` /
 * `removePendingApproval`), keeps the run's state `awaiting_approval` while any is pending, and
 * puts Approve / Deny buttons on the check run for the oldest one. The first request it saves is
 * linked from the run's superseded approval comments (those of a dead attempt that recovery took over).
 */
export function bridgeApprovals(options: BridgeApprovalsOptions): ApprovalBridge {
  const { store, channel, issueKey, runId } = options;
  const since = options.since ?? Date.now();
  const log = options.log ?? (() => {});
  let known = new Map<string, PendingApproval>();
  let shownActions = '[]';
  let stopped = false;
  let busy: Promise<void> = Promise.resolve();
  let linked = false;

  /** Points the comments of a dead attempt's approvals to the request that asks again. */
  const linkSuperseded = async (again: PendingApproval): Promise<void> => {
    linked = true;
    for (const old of await store.supersededApprovals({ runId })) {
      try {
        const comment = await options.api.getComment(options.repo, old.commentId);
        await options.api.updateComment(options.repo, old.commentId, linkSupersededComment(comment.body, again));
      } catch (error) {
        log(
          `approvals: could not link superseded approval ${old.approvalId}: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
  };

  const sync = async (pending: readonly PendingApproval[]): Promise<void> => {
    const next = new Map(pending.map((p) => [p.approvalId, p]));
    for (const [id, approval] of next) {
      if (known.has(id)) continue;
      await store.savePendingApproval(runId, issueKey, approval);
      if (!linked) await linkSuperseded(approval);
    }
    for (const id of known.keys()) {
      if (!next.has(id)) await store.removePendingApproval(id);
    }
    const changedCount = (known.size === 0) !== (next.size === 0);
    known = next;
    if (changedCount) {
      await store.update(options.lease(), { state: next.size > 0 ? 'awaiting_approval' : 'running' });
    }
    const actions = approvalActions([...next.values()]);
    const key = JSON.stringify(actions);
    if (key !== shownActions) {
      shownActions = key;
      await options.api.updateCheckRun(options.repo, options.checkRunId, { actions });
    }
  };

  const tick = async (): Promise<void> => {
    const answers = await store.takeAnswers(issueKey);
    for (const stored of answers) {
      if (stored.receivedAt < since) continue;
      if (stored.kind === 'void') {
        await channel.voidPending(stored.reason);
        continue;
      }
      if (stored.kind === 'steer') {
        const result = (await options.steering?.offer(stored.steer)) ?? { kind: 'ignored', reason: 'no steering' };
        log(`mention ${stored.steer.commentId} offered to the running agent: ${result.kind}`);
        continue;
      }
      const answer = stored.answer;
      // The channel resolves a shortened id and answers visibly on GitHub when the answer does not count.
      const outcome = await channel.answer(answer);
      if ('ignored' in outcome) log(`answer from @${answer.actor.login} ignored: ${outcome.ignored}`);
    }
    await sync(channel.pending);
  };

  const run = () => {
    busy = busy
      .then(tick)
      .catch((error: unknown) => log(`approvals: ${error instanceof Error ? error.message : error}`));
  };
  const timer = setInterval(() => {
    if (!stopped) run();
  }, options.intervalMs ?? 300);
  run();

  return {
    detach() {
      stopped = true;
      clearInterval(timer);
    },
    async close() {
      stopped = true;
      clearInterval(timer);
      await busy;
      try {
        for (const id of known.keys()) await store.removePendingApproval(id);
        known = new Map();
        if (shownActions !== '[]') {
          await options.api.updateCheckRun(options.repo, options.checkRunId, { actions: [] });
        }
      } catch (error) {
        log(`approvals: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
