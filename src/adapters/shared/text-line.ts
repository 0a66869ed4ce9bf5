import type { EventDraft } from '../../core/events/index.ts';

/**
 * A line that is not JSON (a warning the CLI printed to stdout): kept as a stdout `log` line, not a
 * failure and not model text (the contract: stray lines change no other event).
 */
export function textLine(line: string): EventDraft[] {
  return line.trim() === '' ? [] : [{ type: 'log', source: 'stdout', line }];
}
