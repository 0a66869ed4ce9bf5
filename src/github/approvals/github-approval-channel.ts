import type { Budget, BudgetSpent } from '../../core/run/run-options.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '../../core/tools/approval-channel.ts';
import { APPROVAL_ID_MIN_PREFIX, createApprovalId } from '../../core/tools/create-approval-id.ts';
import type { CommentRef, GitHubApi, GitHubUser, RepoRef } from '../github-api.ts';
import { markers } from '../github-names.ts';
import { answerName } from './answer-from.ts';
import { type ApproverRule, checkApprover, describeApprovers, isBotOrSelf } from './approver-rule.ts';
import { matchApprovalId } from './match-approval-id.ts';
import {
  type ApprovalCommentView,
  approvalCommentFits,
  renderApprovalComment,
  renderTooLongNotice,
  tooLongReason,
} from './render-approval-comment.ts';
import { type BudgetCommentView, describeBudget, formatUsd, renderBudgetComment } from './render-budget-comment.ts';

/**
 * An answer from GitHub: a `/approve` or `/deny` comment, a review, or a check-run button; or a
 * `/budget <amount>` comment, which raises the budget of a run paused on it.
 */
export interface ApprovalAnswer {
  /** Which approval; undefined answers every pending one (a review) or the paused budget (`/budget`). */
  approvalId?: string;
  decision: 'approve' | 'deny' | 'raise';
  /** A raise's new total for the run (`decision: 'raise'`). */
  raise?: { amount: number; unit: 'usd' | 'tokens' };
  reason?: string;
  actor: GitHubUser;
  /** The commit the answer was given on, when GitHub says (a review's `commit_id`). */
  commitSha?: string;
  via: 'comment' | 'review' | 'check_run';
  /** The comment the answer was written in, when it was one: a refused answer gets a reaction there. */
  source?: CommentRef;
  /**
   * When GitHub says the answer was given (a comment's `created_at`, a review's `submitted_at`): it
   * answers only approvals asked before then. Undefined for a check-run button, which exists only
   * once asked.
   */
  givenAt?: string;
  /** The comment was edited after it was written (by its author or another writer): not counted. */
  edited?: boolean;
}

export type AnswerOutcome = { applied: string[] } | { ignored: string };

/** An approval waiting on GitHub; plain data, so a front end can store it. */
export interface PendingApproval {
  approvalId: string;
  /** The tool asked about; {@link BUDGET_TOOL_NAME} for a run paused on its budget. */
  toolName: string;
  commitSha: string;
  commentId: number;
  askedAt: string;
  /** The approval comment's `created_at` on GitHub (GitHub's clock, whole seconds); `askedAt` when unknown. */
  postedAt?: string;
}

/** The `toolName` of the pending entry of a run paused on its budget (answered with `/budget`). */
export const BUDGET_TOOL_NAME = '(budget)';

/** A run paused on its spent budget, asking GitHub for a raise. */
export interface BudgetAsk {
  spent: BudgetSpent;
  /** The day's spending against a daily limit, shown beside the run's own. */
  daily?: string;
}

/** The default of `GitHubApprovalChannelOptions.maxPending`. */
export const DEFAULT_MAX_PENDING = 5;

export interface GitHubApprovalChannelOptions {
  api: Pick<
    GitHubApi,
    'createComment' | 'updateComment' | 'addReaction' | 'requestReviewers' | 'getPermission' | 'isTeamMember'
  >;
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
  /**
   * Most approvals a run may have open at once (default 5): past it a request is denied without a
   * comment, so that an agent cannot flood the page with questions (issue 32.12).
   */
  maxPending?: number;
  /** Reports what happened (asked, ignored answers, decisions) for the log and the tracking comment. */
  onNote?: (line: string) => void;
  /** Called whenever the set of pending approvals changes (a front end may persist it). */
  onPendingChange?: (pending: readonly PendingApproval[]) => void;
}

export interface GitHubApprovalChannel extends ApprovalChannel {
  /** Applies an answer under the approver rule and the head-commit binding. Never rejects. */
  answer(answer: ApprovalAnswer): Promise<AnswerOutcome>;
  /**
   * Asks on GitHub for a higher budget for a run paused on its own (the `RunOptions.onBudgetSpent`
   * of a GitHub run): resolves with the raised budget, or undefined when it is denied, voided, or
   * `signal` aborts (the approval timeout, the run's end). Never rejects.
   */
  askBudget(ask: BudgetAsk, signal: AbortSignal): Promise<Budget | undefined>;
  /** Denies every pending approval (a new push, a cancelled run). */
  voidPending(reason: string): Promise<void>;
  readonly pending: readonly PendingApproval[];
}

/** How an entry is settled; a raise carries the new budget. */
type Settled = { decision: ApprovalDecision; raised?: Budget };

/** The state an entry's comment shows once settled. */
type SettledState =
  | NonNullable<ApprovalCommentView['state']>
  | Extract<NonNullable<BudgetCommentView['state']>, { kind: 'raised' }>;

interface Waiting {
  pending: PendingApproval;
  /** The comment: a tool's approval or a budget pause. */
  view: { kind: 'tool'; view: ApprovalCommentView } | { kind: 'budget'; view: BudgetCommentView };
  resolve: (settled: Settled) => void;
  /** Lower-case logins whose refused answers were already told (one reply per request and user). */
  refused: Set<string>;
}

/** The marker of agent-mux's replies to answers that did not count. */
export const APPROVAL_REPLY_MARKER = markers.approvalReply;

/**
 * The rules of approvals on GitHub, written once for both front ends: a request becomes a comment
 * (and a review request on a pull request); an answer counts only from an approver and only on the
 * commit it was asked on; a new push voids what is pending. How answers arrive (polling in the
 * Action, webhooks in the app) is the front end's part: it calls `answer`.
 *
 * An answer is never silent: one that does not count (from someone who may not approve, or with an
 * id that names no pending approval or more than one) gets a `confused` reaction on its comment and
 * one reply comment, and a refused approver is named on the approval comment. Replies go at most
 * once per request and user, and never to bots or to agent-mux itself.
 */
export function createGitHubApprovalChannel(options: GitHubApprovalChannelOptions): GitHubApprovalChannel {
  const channel = new GitHubApprovals(options);
  return {
    request: (req, signal) => channel.request(req, signal),
    askBudget: (ask, signal) => channel.askBudget(ask, signal),
    answer: (ans) => channel.answer(ans),
    voidPending: (reason) => channel.voidPending(reason),
    get pending() {
      return channel.pending;
    },
  };
}

/** The state and rules behind `createGitHubApprovalChannel`. */
class GitHubApprovals {
  private readonly options: GitHubApprovalChannelOptions;
  private readonly api: GitHubApprovalChannelOptions['api'];
  private readonly repo: GitHubApprovalChannelOptions['repo'];
  private readonly waiting = new Map<string, Waiting>();
  /** Requests being asked or waiting for an answer (`maxPending`). */
  private opening = 0;
  private readonly approversText: string;
  /** Keys of replies already posted for answers that named no approval, or several. */
  private readonly toldAboutIds = new Set<string>();

  constructor(options: GitHubApprovalChannelOptions) {
    this.options = options;
    this.api = options.api;
    this.repo = options.repo;
    this.approversText = describeApprovers(options.rule);
  }

  private note(line: string): void {
    this.options.onNote?.(line);
  }

  private changed(): void {
    this.options.onPendingChange?.([...this.waiting.values()].map((w) => w.pending));
  }

  get pending(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.pending);
  }

  async voidPending(reason: string): Promise<void> {
    for (const entry of [...this.waiting.values()]) {
      this.note(`approval ${entry.pending.approvalId} void: ${reason}`);
      await this.settle(entry, { kind: 'deny', reason }, { kind: 'voided', reason });
    }
  }

  private async tell(ans: ApprovalAnswer, text: string): Promise<void> {
    try {
      await this.api.createComment(
        this.repo,
        this.options.number,
        `${APPROVAL_REPLY_MARKER}\n@${ans.actor.login}, ${text}`,
      );
    } catch (error) {
      this.note(`could not reply to @${ans.actor.login}: ${message(error)}`);
    }
  }

  private async react(ans: ApprovalAnswer): Promise<void> {
    if (ans.source === undefined) return;
    try {
      await this.api.addReaction(this.repo, ans.source, 'confused');
    } catch (error) {
      this.note(`could not react to the answer of @${ans.actor.login}: ${message(error)}`);
    }
  }

  /** Finds the approvals an answer is for: every pending one, the exact id, or the one id it starts. */
  private targetsOf(ans: ApprovalAnswer): { targets: Waiting[] } | { unmatched: string } {
    if (ans.decision === 'raise') {
      const paused = [...this.waiting.values()].filter((w) => w.view.kind === 'budget');
      return paused.length > 0 ? { targets: paused } : { unmatched: 'this run is not paused on its budget' };
    }
    // A review approves or denies tool calls; it cannot say how much to raise a budget to.
    if (ans.approvalId === undefined)
      return { targets: [...this.waiting.values()].filter((w) => w.view.kind === 'tool') };
    const typed = ans.approvalId.toLowerCase();
    const list = [...this.waiting.values()];
    const named = new Set(
      matchApprovalId(
        ans.approvalId,
        list.map((w) => w.pending.approvalId),
      ),
    );
    const matches = list.filter((w) => named.has(w.pending.approvalId));
    if (matches.length === 1) return { targets: matches };
    const pendingText =
      list.length === 0
        ? 'nothing is waiting for approval in this run'
        : `waiting: ${list.map((w) => `\`${w.pending.approvalId}\` (\`${w.pending.toolName}\`)`).join(', ')}`;
    if (matches.length > 1) {
      return {
        unmatched: `\`${ans.approvalId}\` starts ${matches.length} pending approvals (${matches.map((w) => `\`${w.pending.approvalId}\``).join(', ')}): type more of the id`,
      };
    }
    const short =
      typed.length < APPROVAL_ID_MIN_PREFIX
        ? ` (a shortened id needs at least ${APPROVAL_ID_MIN_PREFIX} characters)`
        : '';
    return { unmatched: `no pending approval has the id \`${ans.approvalId}\`${short}; ${pendingText}` };
  }

  private async settle(entry: Waiting, decision: ApprovalDecision, state: SettledState, raised?: Budget) {
    if (!this.waiting.delete(entry.pending.approvalId)) return;
    this.changed();
    entry.resolve(raised === undefined ? { decision } : { decision, raised });
    entry.view = withState(entry.view, state);
    try {
      await this.api.updateComment(this.repo, entry.pending.commentId, renderView(entry.view));
    } catch (error) {
      this.note(`could not update the approval comment: ${message(error)}`);
    }
  }

  async request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    // Counted from the start (before any await), so that concurrent requests see each other.
    const cap = this.options.maxPending ?? DEFAULT_MAX_PENDING;
    if (this.opening >= cap) {
      const reason = `${cap} approvals are already open: answer those first`;
      this.note(`approval ${req.approvalId} for ${req.toolName} not asked: ${reason}`);
      return { kind: 'deny', reason };
    }
    this.opening++;
    try {
      return await this.ask(req, signal);
    } finally {
      this.opening--;
    }
  }

  private async ask(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const commitSha = await this.options.currentHead();
    const redactedInput = redactValue(req.input, this.options.redact);
    const view: ApprovalCommentView = {
      approvalId: req.approvalId,
      agent: this.options.agent,
      toolName: req.toolName,
      input: redactedInput,
      reason: req.reason === undefined ? undefined : this.options.redact(req.reason),
      commitSha,
      approvers: this.approversText,
      timeoutText: this.options.timeoutText,
    };
    const fit = approvalCommentFits(view);
    if (!fit.fits) {
      // Never ask approval for what the approver cannot see whole: deny, and say so on GitHub.
      const reason = tooLongReason(fit);
      this.note(`approval ${req.approvalId} for ${req.toolName} not asked: ${reason}`);
      try {
        await this.api.createComment(this.repo, this.options.number, renderTooLongNotice(view, fit));
      } catch (error) {
        this.note(`could not post the notice of a denied call: ${message(error)}`);
      }
      return { kind: 'deny', reason };
    }
    const comment = await this.api.createComment(this.repo, this.options.number, renderApprovalComment(view));
    if (this.options.isPullRequest && this.options.requestReview) {
      const users = this.options.rule.users.filter((u) => !u.toLowerCase().endsWith('[bot]'));
      const teams = this.options.rule.teams.filter((t) => !t.includes('/') || t.startsWith(`${this.repo.owner}/`));
      if (users.length + teams.length > 0) {
        try {
          await this.api.requestReviewers(this.repo, this.options.number, {
            users,
            teams: teams.map((t) => t.split('/').pop() ?? t),
          });
        } catch (error) {
          this.note(`could not request a review from the approvers: ${message(error)}`);
        }
      }
    }
    this.note(`approval ${req.approvalId} for ${req.toolName} asked on GitHub`);
    return new Promise<ApprovalDecision>((resolve) => {
      this.wait(
        {
          pending: {
            approvalId: req.approvalId,
            toolName: req.toolName,
            commitSha,
            commentId: comment.id,
            askedAt: new Date().toISOString(),
            ...(Number.isNaN(Date.parse(comment.createdAt)) ? {} : { postedAt: comment.createdAt }),
          },
          view: { kind: 'tool', view },
          resolve: (settled) => resolve(settled.decision),
          refused: new Set(),
        },
        signal,
      );
    });
  }

  /** Keeps an asked entry until it is answered, voided, or `signal` aborts (a timeout or the run's end). */
  private wait(entry: Waiting, signal: AbortSignal): void {
    this.waiting.set(entry.pending.approvalId, entry);
    this.changed();
    const onAbort = () => {
      const timedOut = signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
      const reason = timedOut ? `no decision within ${this.options.timeoutText}` : 'the run ended before a decision';
      void this.settle(entry, { kind: 'deny', reason, timedOut }, { kind: 'denied', reason });
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  async askBudget(ask: BudgetAsk, signal: AbortSignal): Promise<Budget | undefined> {
    if (signal.aborted || [...this.waiting.values()].some((w) => w.view.kind === 'budget')) return undefined;
    let commitSha: string;
    let comment: { id: number; createdAt: string };
    const approvalId = createApprovalId();
    const view: BudgetCommentView = {
      approvalId,
      agent: this.options.agent,
      spent: ask.spent,
      ...(ask.daily === undefined ? {} : { daily: ask.daily }),
      commitSha: '',
      approvers: this.approversText,
      timeoutText: this.options.timeoutText,
    };
    try {
      commitSha = await this.options.currentHead();
      view.commitSha = commitSha;
      comment = await this.api.createComment(this.repo, this.options.number, renderBudgetComment(view));
    } catch (error) {
      this.note(`could not ask for a higher budget on GitHub: ${message(error)}`);
      return undefined;
    }
    this.note(`budget of ${describeBudget(ask.spent.budget)} spent: a raise asked on GitHub (${approvalId})`);
    return new Promise<Budget | undefined>((resolve) => {
      this.wait(
        {
          pending: {
            approvalId,
            toolName: BUDGET_TOOL_NAME,
            commitSha,
            commentId: comment.id,
            askedAt: new Date().toISOString(),
            ...(Number.isNaN(Date.parse(comment.createdAt)) ? {} : { postedAt: comment.createdAt }),
          },
          view: { kind: 'budget', view },
          resolve: (settled) => resolve(settled.raised),
          refused: new Set(),
        },
        signal,
      );
    });
  }

  async answer(ans: ApprovalAnswer): Promise<AnswerOutcome> {
    const quiet = isBotOrSelf(ans.actor, this.options.selfLogins);
    const found = this.targetsOf(ans);
    if ('unmatched' in found) {
      this.note(`ignored ${ans.decision} from @${ans.actor.login}: ${found.unmatched}`);
      const key = `${ans.actor.login.toLowerCase()}\n${(ans.approvalId ?? '').toLowerCase()}`;
      if (!quiet && (ans.approvalId !== undefined || ans.decision === 'raise') && !this.toldAboutIds.has(key)) {
        this.toldAboutIds.add(key);
        await this.react(ans);
        await this.tell(ans, `your ${answerName(ans, true)} did not count: ${found.unmatched}.`);
      }
      return { ignored: found.unmatched };
    }
    const targets = found.targets;
    if (targets.length === 0) return { ignored: 'no pending approval' };
    if (ans.edited) {
      // A writer may edit an approver's comment into `/approve <id>`: an edited answer never counts.
      const reason =
        'the comment was edited after it was written, and an edited answer is not counted: write a new comment';
      this.note(`ignored ${ans.decision} from @${ans.actor.login}: ${reason}`);
      if (!quiet) await this.refuse(ans, targets, reason);
      return { ignored: reason };
    }
    const verdict = await checkApprover({
      api: this.api,
      repo: this.repo,
      login: ans.actor.login,
      type: ans.actor.type,
      rule: this.options.rule,
      selfLogins: this.options.selfLogins,
    });
    if (!verdict.ok) {
      this.note(`ignored ${ans.decision} from @${ans.actor.login}: ${verdict.reason}`);
      if (!quiet) await this.refuse(ans, targets, verdict.reason);
      return { ignored: verdict.reason };
    }
    let head: string;
    try {
      head = await this.options.currentHead();
    } catch (error) {
      this.note(`ignored ${ans.decision} from @${ans.actor.login}: could not read the head commit: ${message(error)}`);
      return { ignored: `could not read the head commit: ${message(error)}` };
    }
    const applied: string[] = [];
    for (const entry of targets) {
      if (entry.pending.commitSha !== head) {
        await this.voidOne(entry, head);
        continue;
      }
      if (givenBefore(ans, entry.pending)) {
        this.note(
          `ignored ${ans.via} from @${ans.actor.login} given at ${ans.givenAt}: approval ${entry.pending.approvalId} was asked later`,
        );
        continue;
      }
      if (ans.commitSha !== undefined && ans.commitSha !== entry.pending.commitSha) {
        this.note(
          `ignored ${ans.via} from @${ans.actor.login} on ${ans.commitSha.slice(0, 7)}: approval ${entry.pending.approvalId} was asked on ${entry.pending.commitSha.slice(0, 7)}`,
        );
        continue;
      }
      const by = ans.actor.login;
      if (entry.view.kind === 'budget') {
        if (await this.answerBudget(ans, entry, entry.view.view, verdict.via)) applied.push(entry.pending.approvalId);
        continue;
      }
      if (ans.decision === 'raise') continue;
      if (ans.decision === 'approve') {
        // Logged once, from the run's own event (`approval … approved (once) by @…`), not here too.
        await this.settle(
          entry,
          { kind: 'approve', scope: 'once', by },
          { kind: 'approved', by, via: verdict.via, scope: 'once' },
        );
      } else {
        const reason = ans.reason?.trim() || `denied by @${by}`;
        await this.settle(entry, { kind: 'deny', reason, by }, { kind: 'denied', by, reason });
      }
      applied.push(entry.pending.approvalId);
    }
    return applied.length > 0
      ? { applied }
      : { ignored: 'the answer did not match a pending approval on the head commit' };
  }

  /**
   * Applies a counted answer to a run paused on its budget: `/budget` raises it (to more than was
   * spent), `/deny` stops the run; `/approve` or an approve button does not say how much, and is
   * refused with how to raise.
   */
  private async answerBudget(
    ans: ApprovalAnswer,
    entry: Waiting,
    view: BudgetCommentView,
    via: string,
  ): Promise<boolean> {
    const by = ans.actor.login;
    if (ans.decision === 'deny') {
      const reason = ans.reason?.trim() || `denied by @${by}`;
      await this.settle(entry, { kind: 'deny', reason, by }, { kind: 'denied', by, reason });
      return true;
    }
    const raised = ans.decision === 'raise' && ans.raise ? raiseBudget(view.spent, ans.raise) : undefined;
    if (raised === undefined || 'short' in raised) {
      const reason =
        raised === undefined
          ? `a run paused on its budget is raised with \`/budget <amount>\` (its new total), or stopped with \`/deny ${entry.pending.approvalId}\``
          : raised.short;
      this.note(`ignored ${ans.decision} from @${by}: ${reason}`);
      if (!isBotOrSelf(ans.actor, this.options.selfLogins)) await this.refuse(ans, [entry], reason, false);
      return false;
    }
    this.note(`budget raised to ${describeBudget(raised.budget)} by @${by} (${via})`);
    await this.settle(
      entry,
      { kind: 'approve', scope: 'once', by },
      { kind: 'raised', by, budget: raised.budget },
      raised.budget,
    );
    return true;
  }

  /** Tells a user whose answer did not count why, and who may answer: once per request and user. */
  private async refuse(
    ans: ApprovalAnswer,
    targets: readonly Waiting[],
    reason: string,
    nameApprovers = true,
  ): Promise<void> {
    const login = ans.actor.login.toLowerCase();
    // Every refused comment gets a reaction (no notification); the reply goes once per request and user.
    await this.react(ans);
    const fresh = targets.filter((entry) => !entry.refused.has(login));
    if (fresh.length === 0) return;
    const what = answerName(ans, false);
    const which = fresh.map((e) => `\`${e.pending.approvalId}\` (\`${e.pending.toolName}\`)`).join(', ');
    const approvers = nameApprovers ? `\nApprovers: ${this.approversText}.` : '';
    await this.tell(ans, `your ${what} for ${which} did not count: ${reason}.${approvers}`);
    for (const entry of fresh) {
      entry.refused.add(login);
      entry.view = withNotCounted(entry.view, `@${ans.actor.login} (${reason})`);
      try {
        await this.api.updateComment(this.repo, entry.pending.commentId, renderView(entry.view));
      } catch (error) {
        this.note(`could not update the approval comment: ${message(error)}`);
      }
    }
  }

  private async voidOne(entry: Waiting, head: string): Promise<void> {
    const reason = `a new commit (${head.slice(0, 7)}) was pushed after approval was asked on ${entry.pending.commitSha.slice(0, 7)}`;
    this.note(`approval ${entry.pending.approvalId} void: ${reason}`);
    await this.settle(entry, { kind: 'deny', reason }, { kind: 'voided', reason });
  }
}

/**
 * Whether an answer was given before the approval was asked (a review submitted earlier, replayed
 * or re-read): it cannot be about it. GitHub's times have whole seconds, so times are compared in
 * seconds. An answer that names the approval (`/approve <id>`, a check-run button) cannot predate
 * the id, so its second counts as after; one that does not (a review) must come in a later second
 * than the ask — in the same second it may have been submitted just before it (issue 32.14). A
 * `/budget` raise answers the one paused budget, and counts from the second of the ask. An
 * answer without a time or an unreadable one is not judged here.
 */
function givenBefore(ans: ApprovalAnswer, pending: PendingApproval): boolean {
  if (ans.givenAt === undefined) return false;
  const given = Math.floor(Date.parse(ans.givenAt) / 1000);
  const asked = Math.floor(Date.parse(pending.postedAt ?? pending.askedAt) / 1000);
  if (Number.isNaN(given)) return true;
  if (Number.isNaN(asked)) return false;
  return ans.approvalId === undefined && ans.decision !== 'raise' ? given <= asked : given < asked;
}

/** The budget a raise gives a paused run, or why it does not lift the run above what it spent. */
function raiseBudget(
  spent: BudgetSpent,
  raise: NonNullable<ApprovalAnswer['raise']>,
): { budget: Budget } | { short: string } {
  const budget: Budget = { ...spent.budget, [raise.unit]: raise.amount };
  if (budget.usd !== undefined && spent.usd >= budget.usd) {
    return {
      short:
        raise.unit === 'usd'
          ? `the run has already spent ${formatUsd(spent.usd)}: raise its budget above that`
          : `the run has spent its ${formatUsd(budget.usd)} in dollars: raise that (\`/budget <dollars>\`)`,
    };
  }
  if (budget.tokens !== undefined && spent.tokens >= budget.tokens) {
    return {
      short:
        raise.unit === 'tokens'
          ? `the run has already used ${spent.tokens.toLocaleString('en-US')} tokens: raise its budget above that`
          : `the run has used its ${budget.tokens.toLocaleString('en-US')} tokens: raise that (\`/budget <n> tokens\`)`,
    };
  }
  return { budget };
}

function withState(view: Waiting['view'], state: SettledState): Waiting['view'] {
  if (view.kind === 'tool') return state.kind === 'raised' ? view : { kind: 'tool', view: { ...view.view, state } };
  return state.kind === 'approved' ? view : { kind: 'budget', view: { ...view.view, state } };
}

function withNotCounted(view: Waiting['view'], line: string): Waiting['view'] {
  return view.kind === 'tool'
    ? { kind: 'tool', view: { ...view.view, notCounted: [...(view.view.notCounted ?? []), line] } }
    : { kind: 'budget', view: { ...view.view, notCounted: [...(view.view.notCounted ?? []), line] } };
}

function renderView(view: Waiting['view']): string {
  return view.kind === 'tool' ? renderApprovalComment(view.view) : renderBudgetComment(view.view);
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
