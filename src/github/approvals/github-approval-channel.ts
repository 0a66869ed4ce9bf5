import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '../../core/tools/approval-channel.ts';
import type { GitHubApi, RepoRef } from '../github-api.ts';
import { type ApproverRule, checkApprover } from './approver-rule.ts';
import { type ApprovalCommentView, renderApprovalComment } from './render-approval-comment.ts';

/** An answer from GitHub: a `/approve` or `/deny` comment, a review, or a check-run button. */
export interface ApprovalAnswer {
  /** Which approval; undefined answers every pending one (a review). */
  approvalId?: string;
  decision: 'approve' | 'deny';
  reason?: string;
  actor: { login: string; type: string };
  /** The commit the answer was given on, when GitHub says (a review's `commit_id`). */
  commitSha?: string;
  via: 'comment' | 'review' | 'check_run';
}

export type AnswerOutcome = { applied: string[] } | { ignored: string };

/** An approval waiting on GitHub; plain data, so a front end can store it. */
export interface PendingApproval {
  approvalId: string;
  toolName: string;
  commitSha: string;
  commentId: number;
  askedAt: string;
}

export interface GitHubApprovalChannelOptions {
  api: Pick<GitHubApi, 'createComment' | 'updateComment' | 'requestReviewers' | 'getPermission' | 'isTeamMember'>;
  repo: RepoRef;
  /** The issue or pull request the run belongs to. */
  number: number;
  isPullRequest: boolean;
  agent: string;
  rule: ApproverRule;
  /** On a pull request, also request a review from the approvers. */
  requestReview: boolean;
  /** The commit the repository is on now (the PR head, or the default branch for an issue). */
  currentHead: () => Promise<string>;
  /** The logins of agent-mux itself (its answers never count). */
  selfLogins: readonly string[];
  /** Removes secrets from text shown on GitHub. */
  redact: (text: string) => string;
  /** For the comment: how long an approval may wait. */
  timeoutText: string;
  /** Reports what happened (asked, ignored answers, decisions) for the log and the tracking comment. */
  onNote?: (line: string) => void;
  /** Called whenever the set of pending approvals changes (a front end may persist it). */
  onPendingChange?: (pending: readonly PendingApproval[]) => void;
}

export interface GitHubApprovalChannel extends ApprovalChannel {
  /** Applies an answer under the approver rule and the head-commit binding. Never rejects. */
  answer(answer: ApprovalAnswer): Promise<AnswerOutcome>;
  /** Denies every pending approval (a new push, a cancelled run). */
  voidPending(reason: string): Promise<void>;
  readonly pending: readonly PendingApproval[];
}

interface Waiting {
  pending: PendingApproval;
  view: ApprovalCommentView;
  resolve: (decision: ApprovalDecision) => void;
}

/**
 * The rules of approvals on GitHub, written once for both front ends: a request becomes a comment
 * (and a review request on a pull request); an answer counts only from an approver and only on the
 * commit it was asked on; a new push voids what is pending. How answers arrive (polling in the
 * Action, webhooks in the app) is the front end's part: it calls `answer`.
 */
export function createGitHubApprovalChannel(options: GitHubApprovalChannelOptions): GitHubApprovalChannel {
  const { api, repo } = options;
  const waiting = new Map<string, Waiting>();
  const note = (line: string) => options.onNote?.(line);
  const changed = () => options.onPendingChange?.([...waiting.values()].map((w) => w.pending));
  const approversText = describeApprovers(options.rule);

  async function settle(entry: Waiting, decision: ApprovalDecision, state: ApprovalCommentView['state']) {
    if (!waiting.delete(entry.pending.approvalId)) return;
    changed();
    entry.resolve(decision);
    entry.view = { ...entry.view, state };
    try {
      await api.updateComment(repo, entry.pending.commentId, renderApprovalComment(entry.view));
    } catch (error) {
      note(`could not update the approval comment: ${message(error)}`);
    }
  }

  async function request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const commitSha = await options.currentHead();
    const redactedInput = redactValue(req.input, options.redact);
    const view: ApprovalCommentView = {
      approvalId: req.approvalId,
      agent: options.agent,
      toolName: req.toolName,
      input: redactedInput,
      reason: req.reason === undefined ? undefined : options.redact(req.reason),
      commitSha,
      approvers: approversText,
      timeoutText: options.timeoutText,
    };
    const comment = await api.createComment(repo, options.number, renderApprovalComment(view));
    if (options.isPullRequest && options.requestReview) {
      const users = options.rule.users.filter((u) => !u.toLowerCase().endsWith('[bot]'));
      const teams = options.rule.teams.filter((t) => !t.includes('/') || t.startsWith(`${repo.owner}/`));
      if (users.length + teams.length > 0) {
        try {
          await api.requestReviewers(repo, options.number, { users, teams: teams.map((t) => t.split('/').pop() ?? t) });
        } catch (error) {
          note(`could not request a review from the approvers: ${message(error)}`);
        }
      }
    }
    note(`approval ${req.approvalId} for ${req.toolName} asked on GitHub`);
    return new Promise<ApprovalDecision>((resolve) => {
      const entry: Waiting = {
        pending: {
          approvalId: req.approvalId,
          toolName: req.toolName,
          commitSha,
          commentId: comment.id,
          askedAt: new Date().toISOString(),
        },
        view,
        resolve,
      };
      waiting.set(req.approvalId, entry);
      changed();
      const onAbort = () => {
        const timedOut = signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
        const reason = timedOut ? `no decision within ${options.timeoutText}` : 'the run ended before a decision';
        void settle(entry, { kind: 'deny', reason, timedOut }, { kind: 'denied', reason });
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function answer(ans: ApprovalAnswer): Promise<AnswerOutcome> {
    const targets =
      ans.approvalId === undefined
        ? [...waiting.values()]
        : [waiting.get(ans.approvalId)].filter((w): w is Waiting => w !== undefined);
    if (targets.length === 0) {
      return { ignored: ans.approvalId ? `no pending approval ${ans.approvalId}` : 'no pending approval' };
    }
    const verdict = await checkApprover({
      api,
      repo,
      login: ans.actor.login,
      type: ans.actor.type,
      rule: options.rule,
      selfLogins: options.selfLogins,
    });
    if (!verdict.ok) {
      note(`ignored ${ans.decision} from @${ans.actor.login}: ${verdict.reason}`);
      return { ignored: verdict.reason };
    }
    let head: string;
    try {
      head = await options.currentHead();
    } catch (error) {
      note(`ignored ${ans.decision} from @${ans.actor.login}: could not read the head commit: ${message(error)}`);
      return { ignored: `could not read the head commit: ${message(error)}` };
    }
    const applied: string[] = [];
    for (const entry of targets) {
      if (entry.pending.commitSha !== head) {
        await voidOne(entry, head);
        continue;
      }
      if (ans.commitSha !== undefined && ans.commitSha !== entry.pending.commitSha) {
        note(
          `ignored ${ans.via} from @${ans.actor.login} on ${ans.commitSha.slice(0, 7)}: approval ${entry.pending.approvalId} was asked on ${entry.pending.commitSha.slice(0, 7)}`,
        );
        continue;
      }
      const by = ans.actor.login;
      if (ans.decision === 'approve') {
        note(`approval ${entry.pending.approvalId} approved by @${by} (${verdict.via})`);
        await settle(
          entry,
          { kind: 'approve', scope: 'once', by },
          { kind: 'approved', by, via: verdict.via, scope: 'once' },
        );
      } else {
        const reason = ans.reason?.trim() || `denied by @${by}`;
        note(`approval ${entry.pending.approvalId} denied by @${by}: ${reason}`);
        await settle(entry, { kind: 'deny', reason, by }, { kind: 'denied', by, reason });
      }
      applied.push(entry.pending.approvalId);
    }
    return applied.length > 0
      ? { applied }
      : { ignored: 'the answer did not match a pending approval on the head commit' };
  }

  async function voidOne(entry: Waiting, head: string): Promise<void> {
    const reason = `a new commit (${head.slice(0, 7)}) was pushed after approval was asked on ${entry.pending.commitSha.slice(0, 7)}`;
    note(`approval ${entry.pending.approvalId} void: ${reason}`);
    await settle(entry, { kind: 'deny', reason }, { kind: 'voided', reason });
  }

  return {
    request,
    answer,
    async voidPending(reason) {
      for (const entry of [...waiting.values()]) {
        note(`approval ${entry.pending.approvalId} void: ${reason}`);
        await settle(entry, { kind: 'deny', reason }, { kind: 'voided', reason });
      }
    },
    get pending() {
      return [...waiting.values()].map((w) => w.pending);
    },
  };
}

function describeApprovers(rule: ApproverRule): string {
  const parts = [
    ...rule.users.map((u) => `@${u}`),
    ...rule.teams.map((t) => `team ${t}`),
    `anyone with ${rule.permission} permission`,
  ];
  return parts.join(', ');
}

/** Redacts every string inside a JSON-like value. */
function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, redact)]));
  }
  return value;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
