import { APPROVAL_ID_MIN_PREFIX } from '../../core/tools/create-approval-id.ts';
import { markers } from '../github-names.ts';
import { clip, escapeText, fencedBlock, formatCount, inlineCode } from '../report/markdown.ts';
import { showInvisible, showInvisibleInJson } from './show-invisible.ts';

/** What an approval comment shows. `input` must already be redacted. */
export interface ApprovalCommentView {
  approvalId: string;
  agent: string;
  toolName: string;
  input: unknown;
  reason?: string;
  commitSha: string;
  /** Who may answer, e.g. "users with write permission or above; @alice; team @org/sec". */
  approvers: string;
  timeoutText: string;
  /** Answers that did not count, each "@login (why)"; shown so the person sees it on the comment. */
  notCounted?: readonly string[];
  state?:
    | { kind: 'approved'; by: string; via: string; scope: 'once' | 'always' }
    | { kind: 'denied'; by?: string; reason: string }
    | { kind: 'voided'; reason: string };
}

/** GitHub refuses a comment body longer than this many characters. */
export const GITHUB_COMMENT_MAX_CHARS = 65_536;
/** Room kept free in a new approval comment for what its later updates add (the decision, "Not counted"). */
const UPDATE_RESERVE_CHARS = 4_000;
/** Arguments up to this long are shown open; longer ones in a collapsed block (still whole). */
const OPEN_ARGUMENT_CHARS = 6_000;
/** A decision's reason (a `/deny` comment's text) is shown up to this long. */
const MAX_REASON_CHARS = 1_000;

/** The marker that opens every approval comment; front ends use it to recognise their own comments. */
export const approvalMarker = markers.approval;

/** Whether the whole of a request fits in an approval comment; when not, it must not be asked. */
export type ApprovalCommentFit = { fits: true } | { fits: false; argumentChars: number; commentChars: number };

/**
 * Whether an approval comment for `view` can show every character of the arguments and still leave
 * room for its updates within GitHub's comment limit. Never ask approval for what cannot be shown.
 */
export function approvalCommentFits(view: ApprovalCommentView): ApprovalCommentFit {
  const commentChars = renderApprovalComment({ ...view, state: undefined, notCounted: undefined }).length;
  if (commentChars <= GITHUB_COMMENT_MAX_CHARS - UPDATE_RESERVE_CHARS) return { fits: true };
  return { fits: false, argumentChars: formatArguments(view.input).length, commentChars };
}

/**
 * The Markdown of an approval comment, before and after the decision. The arguments are shown
 * whole (a long text in a collapsed block, never cut), with every invisible and bidirectional
 * character escaped (`\u202E`), so what is approved is what is shown.
 */
export function renderApprovalComment(view: ApprovalCommentView): string {
  const args = formatArguments(view.input);
  const tool = inlineCode(showInvisible(view.toolName));
  // The reason may be the agent's own words: Markdown and @mentions in it are shown, not acted on.
  const reason =
    view.reason === undefined ? '' : ` (${escapeText(clip(showInvisible(view.reason), MAX_REASON_CHARS))})`;
  const open = args.length <= OPEN_ARGUMENT_CHARS;
  const lines = [
    approvalMarker(view.approvalId),
    `### ${headline(view, tool)}`,
    '',
    `The agent **${view.agent}** wants to run ${tool}${reason}.`,
    '',
    open
      ? '<details open><summary>Arguments</summary>'
      : `<details><summary>Arguments (${formatCount(args.length)} characters, all shown: expand to read them before answering)</summary>`,
    '',
    fencedBlock(args, 'json'),
    '',
    '</details>',
    '',
  ];
  const state = view.state;
  if (state === undefined) {
    lines.push(
      `Asked on commit \`${view.commitSha.slice(0, 12)}\`; a new push voids it.`,
      `Reply \`/approve ${view.approvalId}\` or \`/deny ${view.approvalId} <reason>\` (or the first ${APPROVAL_ID_MIN_PREFIX} characters of the id).`,
      `Approvers: ${view.approvers}.`,
      `Without an answer it is denied after ${view.timeoutText}.`,
    );
  } else if (state.kind === 'approved') {
    lines.push(
      `**Approved** by @${state.by} (${state.via})${state.scope === 'always' ? ' for the rest of the run' : ''}.`,
    );
  } else if (state.kind === 'denied') {
    lines.push(`**Denied**${state.by ? ` by @${state.by}` : ''}: ${clip(state.reason, MAX_REASON_CHARS)}`);
  } else {
    lines.push(`**Void**: ${clip(state.reason, MAX_REASON_CHARS)}`);
  }
  const body = lines.join('\n');
  return `${body}${notCountedText(view.notCounted ?? [], GITHUB_COMMENT_MAX_CHARS - body.length)}`;
}

/**
 * The notice posted instead of an approval comment when the arguments cannot be shown whole: the
 * call is denied without asking.
 */
export function renderTooLongNotice(view: ApprovalCommentView, fit: { argumentChars: number }): string {
  const tool = inlineCode(showInvisible(view.toolName));
  return [
    approvalMarker(view.approvalId),
    `### Denied without asking: ${tool}`,
    '',
    `The agent **${view.agent}** wanted to run ${tool} with arguments of ${formatCount(fit.argumentChars)} characters: ` +
      `too long to show whole in a GitHub comment (at most ${formatCount(GITHUB_COMMENT_MAX_CHARS)} characters), ` +
      'so nobody is asked to approve them. The call is denied and the agent is told why.',
  ].join('\n');
}

/** The reason the agent gets when its call was too long to ask about. */
export function tooLongReason(fit: { argumentChars: number }): string {
  return (
    `denied without asking: the arguments (${fit.argumentChars} characters) are too long to show whole to an approver ` +
    `on GitHub (a comment holds at most ${GITHUB_COMMENT_MAX_CHARS} characters); make the change in smaller calls`
  );
}

function notCountedText(notCounted: readonly string[], room: number): string {
  if (notCounted.length === 0) return '';
  const shown: string[] = [];
  // "\n\nNot counted: " and "; and N more." fit in 40 characters.
  let length = 40;
  for (const item of notCounted) {
    const text = clip(item, 300);
    if (length + text.length + 2 > room) break;
    shown.push(text);
    length += text.length + 2;
  }
  const hidden = notCounted.length - shown.length;
  const more = hidden > 0 ? `${shown.length > 0 ? '; and ' : ''}${hidden} more` : '';
  return `\n\nNot counted: ${shown.join('; ')}${more}.`;
}

function headline(view: ApprovalCommentView, tool: string): string {
  if (view.state === undefined) return `Approval needed: ${tool}`;
  if (view.state.kind === 'approved') return `Approved: ${tool}`;
  return view.state.kind === 'denied' ? `Denied: ${tool}` : `Void: ${tool}`;
}

/** The arguments as indented JSON, whole, with invisible characters escaped. */
function formatArguments(input: unknown): string {
  try {
    const json = JSON.stringify(input ?? {}, null, 2);
    if (json !== undefined) return showInvisibleInJson(json);
  } catch {
    // not JSON (a cycle, a BigInt): shown as text below
  }
  return showInvisible(String(input));
}
