import { APPROVAL_ID_MIN_PREFIX } from '../../core/tools/create-approval-id.ts';
import { fencedBlock } from '../report/markdown.ts';

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

const MAX_ARGUMENT_CHARS = 6000;

/** The marker that opens every approval comment; front ends use it to recognise their own comments. */
export const approvalMarker = (approvalId: string) => `<!-- agent-mux:approval:${approvalId} -->`;

/** The Markdown of an approval comment, before and after the decision. */
export function renderApprovalComment(view: ApprovalCommentView): string {
  const args = formatArguments(view.input);
  const lines = [
    approvalMarker(view.approvalId),
    `### ${headline(view)}`,
    '',
    `The agent **${view.agent}** wants to run \`${view.toolName}\`${view.reason ? ` (${view.reason})` : ''}.`,
    '',
    '<details open><summary>Arguments</summary>',
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
    lines.push(`**Denied**${state.by ? ` by @${state.by}` : ''}: ${state.reason}`);
  } else {
    lines.push(`**Void**: ${state.reason}`);
  }
  if (view.notCounted !== undefined && view.notCounted.length > 0) {
    lines.push('', `Not counted: ${view.notCounted.join('; ')}.`);
  }
  return lines.join('\n');
}

function headline(view: ApprovalCommentView): string {
  const tool = `\`${view.toolName}\``;
  if (view.state === undefined) return `Approval needed: ${tool}`;
  if (view.state.kind === 'approved') return `Approved: ${tool}`;
  return view.state.kind === 'denied' ? `Denied: ${tool}` : `Void: ${tool}`;
}

function formatArguments(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input ?? {}, null, 2) ?? String(input);
  } catch {
    text = String(input);
  }
  return text.length > MAX_ARGUMENT_CHARS
    ? `${text.slice(0, MAX_ARGUMENT_CHARS)}\n… (${text.length - MAX_ARGUMENT_CHARS} more characters)`
    : text;
}
