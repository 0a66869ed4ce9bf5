import { escapeText, inlineCode } from './markdown.ts';
import type { RunProgress } from './run-progress.ts';

/** How many refused calls a report names. */
const MAX_REFUSED_SHOWN = 10;

/** Text with its `` `code` `` spans kept as code and everything else escaped, on one line. */
export function textWithCode(text: string): string {
  return text
    .split('`')
    .map((part, i) => {
      if (i % 2 === 1) return inlineCode(part);
      const escaped = escapeText(part);
      if (escaped === '') return part.length > 0 ? ' ' : '';
      return `${/^\s/.test(part) ? ' ' : ''}${escaped}${/\s$/.test(part) ? ' ' : ''}`;
    })
    .join('');
}

/**
 * The run's notices (the policy made the agent read-only, …) and the calls that restriction
 * refused, as Markdown paragraphs; empty when there is nothing to say.
 */
export function renderNotices(progress: RunProgress): string[] {
  const lines: string[] = [];
  for (const notice of progress.notices) lines.push(`**Note:** ${textWithCode(notice.message)}`, '');
  if (progress.refused.length > 0) {
    const shown = progress.refused.slice(0, MAX_REFUSED_SHOWN);
    const items = shown.map((call) => `${inlineCode(call.target)} (${escapeText(call.reason)})`);
    const more = progress.refused.length - shown.length;
    lines.push(`**Refused:** ${items.join(', ')}${more > 0 ? `, … ${more} more` : ''}`, '');
  }
  if (lines.length > 0) lines.pop();
  return lines;
}

/** True when a notice says the agent could not write: its "no changes" then has a cause. */
export function madeReadOnly(progress: RunProgress): boolean {
  return progress.notices.some((notice) => notice.code === 'read_only');
}
