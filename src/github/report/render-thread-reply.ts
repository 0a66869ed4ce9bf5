import type { LineRange } from '../github-api.ts';
import { markers } from '../github-names.ts';
import { escapeText, inlineCode, link, truncate } from './markdown.ts';
import type { RunConclusion } from './run-lifecycle.ts';

/** What the reply in a review thread says. */
export interface ThreadReply {
  runId: string;
  agent: string;
  conclusion: RunConclusion;
  reason?: string;
  /** Files the agent changed. */
  changedFiles: number;
  /** Where they went, when pushed. */
  branch?: string;
  /** The agent's change of the commented lines, when it touched them. */
  touched?: { path: string; lines: LineRange; removedOnly: boolean; commitSha: string; commitUrl?: string };
  finalMessage?: string;
  trackingCommentUrl?: string;
  checkRunUrl?: string;
}

/** How much of the agent's final message the reply quotes. */
export const maxQuotedMessageChars = 1500;
const maxQuotedLines = 20;

/**
 * The short answer posted in the review thread a request came from: the outcome in a sentence,
 * whether the agent's commit changed the commented lines (with the commit), the agent's final
 * message quoted as plain text (Markdown and mentions escaped, bounded), and links to the tracking
 * comment and the check run. Starts with agent-mux's marker, so it never triggers a run.
 */
export function renderThreadReply(reply: ThreadReply): string {
  const lines = [markers.threadReply(reply.runId), outcome(reply)];
  const touched = reply.touched;
  if (touched) {
    const short = touched.commitSha.slice(0, 7);
    const commit = touched.commitUrl ? link(short, touched.commitUrl) : inlineCode(short);
    const verb = touched.removedOnly ? 'Removed' : 'Changed';
    lines.push(`${verb} ${inlineCode(touched.path)} ${rangeText(touched.lines)} in ${commit}.`);
  }
  if (reply.finalMessage?.trim()) {
    const quoted = truncate(reply.finalMessage.trim(), maxQuotedMessageChars)
      .split(/\r?\n/)
      .slice(0, maxQuotedLines)
      .map((line) => (line.trim() ? `> ${escapeText(line)}` : '>'));
    lines.push('', `**${escapeText(reply.agent)}** said:`, '', ...quoted);
  }
  const links = [
    reply.trackingCommentUrl ? link('Tracking comment', reply.trackingCommentUrl) : undefined,
    reply.checkRunUrl ? link('Check run', reply.checkRunUrl) : undefined,
  ].filter((l) => l !== undefined);
  if (links.length > 0) lines.push('', links.join(' · '));
  return `${lines.join('\n')}\n`;
}

function outcome(reply: ThreadReply): string {
  const who = `**agent-mux** (${escapeText(reply.agent)})`;
  if (reply.conclusion === 'success') {
    if (reply.changedFiles === 0) return `${who} is done, without changing any file.`;
    const files = `${reply.changedFiles} file${reply.changedFiles === 1 ? '' : 's'}`;
    return reply.branch
      ? `${who} is done: ${files} changed, pushed to ${inlineCode(reply.branch)}.`
      : `${who} is done: ${files} changed; the tracking comment says how to take the change.`;
  }
  const reason = reply.reason ? `: ${escapeText(truncate(reply.reason, 300))}` : '.';
  const word = {
    failure: 'failed',
    cancelled: 'was cancelled',
    timed_out: 'timed out',
    neutral: 'changed nothing',
    action_required: 'found what blocks merging',
  }[reply.conclusion];
  return `${who} ${word}${reason}`;
}

function rangeText(range: LineRange): string {
  return range.start === range.end ? `line ${range.start}` : `lines ${range.start}–${range.end}`;
}
