import type { DraftOf } from './agent-event.ts';

/** Longest line a `log` event carries; the rest is cut and the event marked `truncated`. */
export const MAX_LOG_LINE = 64 * 1024;

/** A `log` event draft for one line of a program's output. */
export function logDraft(source: 'stdout' | 'stderr', line: string): DraftOf<'log'> {
  return line.length > MAX_LOG_LINE
    ? { type: 'log', source, line: line.slice(0, MAX_LOG_LINE), truncated: true }
    : { type: 'log', source, line };
}
