import { markers } from '../github-names.ts';
import type { Finding, Severity } from './finding.ts';

const BADGES: Record<Severity, string> = {
  blocker: '🔴 **Blocker**',
  major: '🟠 **Major**',
  minor: '🟡 Minor',
  nit: '⚪ Nit',
};

/**
 * The Markdown of one finding's inline review comment: its hidden marker (how later reviews find
 * its thread), severity, title, body, and a ```` ```suggestion ```` block when the agent proposed
 * replacement lines (GitHub shows it with a button that commits it).
 */
export function renderFindingComment(id: string, finding: Finding, encoded: string): string {
  const parts = [markers.finding(id, encoded), `${BADGES[finding.severity]}: ${oneLine(finding.title)}`];
  if (finding.body) parts.push(finding.body);
  if (finding.suggestion !== undefined) parts.push(suggestionBlock(finding.suggestion));
  return parts.join('\n\n');
}

/** A finding that cannot sit on a diff line (outside the pull request's changes), as a line of the review's body. */
export function renderBodyFinding(finding: Finding): string {
  const where = finding.startLine === undefined ? `${finding.line}` : `${finding.startLine}-${finding.line}`;
  const body = finding.body ? ` — ${oneLine(finding.body)}` : '';
  return `- ${BADGES[finding.severity]} \`${finding.path}:${where}\`: ${oneLine(finding.title)}${body}`;
}

/** How agent-mux's reply in a thread it resolves begins (a later review reads the thread as resolved by it). */
export const RESOLVED_REPLY_PREFIX = 'Resolved by agent-mux on ';

/** The one-line reply agent-mux writes when it resolves a finding's thread. */
export function renderResolvedReply(reason: string, headSha: string): string {
  return `${RESOLVED_REPLY_PREFIX}${headSha.slice(0, 7)}: ${reason}`;
}

function suggestionBlock(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  // A fence longer than any run of backticks inside, so the suggestion is never cut short.
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}suggestion\n${body}\n${fence}`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
