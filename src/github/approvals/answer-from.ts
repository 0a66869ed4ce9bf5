import type { CommentRef, GitHubUser } from '../github-api.ts';
import type { Command } from '../trigger/parse-command.ts';
import type { ButtonPress } from './approval-buttons.ts';
import type { ApprovalAnswer } from './github-approval-channel.ts';

/** A `/approve <id>`, `/deny <id> [reason]` or `/budget <amount>` command. */
export type DecisionCommand = Extract<Command, { kind: 'approve' | 'deny' | 'budget' }>;

/** Whether a command answers an approval or a paused budget (rather than starting or cancelling a run). */
export function isDecisionCommand(command: Command | undefined): command is DecisionCommand {
  return command?.kind === 'approve' || command?.kind === 'deny' || command?.kind === 'budget';
}

/**
 * The answer a `/approve` or `/deny` command makes, wherever it was read (a webhook's comment, a
 * comment the Action's poller found): `source` is the comment (a refused answer gets a reaction
 * there) and `givenAt` its `created_at` (it answers only approvals asked before then).
 */
export function answerFromCommand(
  command: DecisionCommand,
  from: { actor: GitHubUser; source?: CommentRef; givenAt?: string },
): ApprovalAnswer {
  const given = {
    actor: from.actor,
    via: 'comment' as const,
    ...(from.source === undefined ? {} : { source: from.source }),
    ...(from.givenAt === undefined ? {} : { givenAt: from.givenAt }),
  };
  if (command.kind === 'budget') {
    return { decision: 'raise', raise: { amount: command.amount, unit: command.unit }, ...given };
  }
  return {
    approvalId: command.approvalId,
    decision: command.kind,
    reason: command.kind === 'deny' ? command.reason : undefined,
    ...given,
  };
}

/**
 * The answer a submitted review makes: an approving one approves, one that requests changes denies
 * (its body is the reason), every pending approval on the commit it was submitted on. Any other
 * state (`commented`, `dismissed`) answers nothing. The state is read in any case (webhooks say
 * `approved`, the REST API `APPROVED`).
 */
export function answerFromReview(review: {
  state: string;
  body: string;
  actor: GitHubUser;
  commitSha?: string;
  submittedAt?: string;
}): ApprovalAnswer | undefined {
  const state = review.state.toLowerCase();
  const decision = state === 'approved' ? 'approve' : state === 'changes_requested' ? 'deny' : undefined;
  if (decision === undefined) return undefined;
  return {
    decision,
    reason: decision === 'deny' ? review.body.trim() || undefined : undefined,
    actor: review.actor,
    commitSha: review.commitSha,
    via: 'review',
    givenAt: review.submittedAt,
  };
}

/**
 * The answer a press of a check run's Approve / Deny button makes, for `approvalId`: the full id
 * when the front end knows which one the button's prefix names, else the prefix (the channel
 * resolves it, and answers a press that does not count). A button has no time: it exists only once asked.
 */
export function answerFromButton(press: ButtonPress, actor: GitHubUser, approvalId: string): ApprovalAnswer {
  return { approvalId, decision: press.decision, actor, via: 'check_run' };
}

/**
 * How a reply names an answer that did not count: `review`, `approve button`, `` `/deny` `` (with
 * the id typed, `` `/deny k3v9` ``, when `withId` and the answer named one).
 */
export function answerName(answer: ApprovalAnswer, withId: boolean): string {
  if (answer.via === 'review') return 'review';
  if (answer.via === 'check_run') return `${answer.decision} button`;
  if (answer.decision === 'raise') return '`/budget`';
  return withId && answer.approvalId !== undefined
    ? `\`/${answer.decision} ${answer.approvalId}\``
    : `\`/${answer.decision}\``;
}
