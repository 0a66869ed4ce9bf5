import type { Budget, BudgetSpent } from '../../core/run/run-options.ts';
import { markers } from '../github-names.ts';
import { clip, escapeText, inlineCode } from '../report/markdown.ts';

/** What the comment of a run paused on its budget shows. */
export interface BudgetCommentView {
  approvalId: string;
  agent: string;
  spent: BudgetSpent;
  /** The day's spending against a daily limit, e.g. "today: $7.40 of $20.00 for this repository". */
  daily?: string;
  commitSha: string;
  /** Who may answer, e.g. "users with write permission or above". */
  approvers: string;
  timeoutText: string;
  /** Answers that did not count, each "@login (why)". */
  notCounted?: readonly string[];
  state?:
    | { kind: 'raised'; by: string; budget: Budget }
    | { kind: 'denied'; by?: string; reason: string }
    | { kind: 'voided'; reason: string };
}

const MAX_REASON_CHARS = 1_000;

/** `$2.00`, `$0.0150` below a cent. */
export function formatUsd(usd: number): string {
  return usd !== 0 && Math.abs(usd) < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** `$5.00`, `400,000 tokens`, `$5.00 and 400,000 tokens`. */
export function describeBudget(budget: Budget): string {
  return [
    ...(budget.usd === undefined ? [] : [formatUsd(budget.usd)]),
    ...(budget.tokens === undefined ? [] : [`${budget.tokens.toLocaleString('en-US')} tokens`]),
  ].join(' and ');
}

/** The unit the run ran out of: US dollars when its dollar limit is spent, else tokens. */
export function spentUnit(spent: BudgetSpent): 'usd' | 'tokens' {
  return spent.budget.usd !== undefined && spent.usd >= spent.budget.usd ? 'usd' : 'tokens';
}

/** The raise the comment suggests: twice the limit that was reached. */
export function suggestedRaise(spent: BudgetSpent): string {
  if (spentUnit(spent) === 'usd') {
    const usd = Math.max(spent.usd, spent.budget.usd ?? 0) * 2;
    return `/budget ${Number.isInteger(usd) ? usd : usd.toFixed(2)}`;
  }
  return `/budget ${Math.max(spent.tokens, spent.budget.tokens ?? 0) * 2} tokens`;
}

/**
 * The Markdown of the comment that asks for a raise when a run has spent its budget, before and
 * after the answer. It opens with the approval marker: it is answered like an approval (same
 * approvers, bound to the head commit), with `/budget <amount>` or `/deny <id>`.
 */
export function renderBudgetComment(view: BudgetCommentView): string {
  const { spent } = view;
  const unit = spentUnit(spent);
  const reached = unit === 'usd' ? formatUsd(spent.usd) : `${spent.tokens.toLocaleString('en-US')} tokens`;
  const limit =
    unit === 'usd' ? formatUsd(spent.budget.usd ?? 0) : `${(spent.budget.tokens ?? 0).toLocaleString('en-US')} tokens`;
  const lines = [
    markers.approval(view.approvalId),
    `### 💸 ${inlineCode(view.agent)} reached its budget`,
    '',
    `This run reached **${reached}** of its **${limit}** budget${view.daily ? ` (${view.daily})` : ''}.`,
  ];
  if (spent.unpriced !== undefined && spent.unpriced.length > 0) {
    lines.push(
      '',
      `ℹ️ No price is known for ${spent.unpriced.map((m) => inlineCode(m)).join(', ')}: its tokens count as $0, so this run is counted by tokens.`,
    );
  }
  if (view.state === undefined) {
    lines.push(
      'The agent is paused: it spends nothing while it waits.',
      '',
      `- Raise it: ${inlineCode(suggestedRaise(spent))} (the run's new total${unit === 'usd' ? ', in US dollars' : ''})`,
      `- Stop it: ${inlineCode(`/deny ${view.approvalId}`)}`,
      '',
      `Who may answer: ${view.approvers}. Asked on ${view.commitSha.slice(0, 7)}; unanswered for ${view.timeoutText}, the run ends \`budget_exceeded\`.`,
    );
  } else if (view.state.kind === 'raised') {
    lines.push('', `✅ Raised to **${describeBudget(view.state.budget)}** by @${view.state.by}: the agent goes on.`);
  } else if (view.state.kind === 'denied') {
    const by = view.state.by ? ` by @${view.state.by}` : '';
    lines.push('', `⛔ Not raised${by}: ${escapeText(clip(view.state.reason, MAX_REASON_CHARS))}. The run ends.`);
  } else {
    lines.push('', `⚪ Void: ${escapeText(view.state.reason)}. The run ends.`);
  }
  if (view.notCounted && view.notCounted.length > 0) {
    lines.push('', `Not counted: ${view.notCounted.map((n) => escapeText(n)).join('; ')}`);
  }
  return lines.join('\n');
}
