/** What the pretty renderer prints for an event, where that needs nothing it holds (or only reads it). */
import type { styleText } from 'node:util';
import { exhaustive } from '../../core/events/exhaustive.ts';
import type { AgentEvent, EventOf } from '../../core/events/index.ts';
import { endReasonPhrase } from '../../github/report/run-lifecycle.ts';

/** `text` in `style` when the output has colour, else as it is. */
export type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

/**
 * The events that change what the pretty renderer holds (its status, the text being streamed, the
 * fatal messages shown) or end the run: `prettyRenderer` handles them itself.
 */
export type PrettyStatefulType =
  | 'progress'
  | 'text_delta'
  | 'message_stop'
  | 'thinking_delta'
  | 'tool_call_ready'
  | 'approval_request'
  | 'auth_error'
  | 'error'
  | 'crash'
  | 'run_end';

/** Every other event: a line of its own, or none. */
export type PrettyLineEvent = Exclude<AgentEvent, { type: PrettyStatefulType }>;

/** A value on one line, cut to `max` characters. */
export const brief = (value: unknown, max = 120): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return '';
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
};

/** A duration in seconds, to a tenth: `2.0 s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The line for `event`, or undefined for an event not shown (`log` and `debug` are shown when
 * `verbose`). Exhaustive: a new event type fails to compile here until it has its case.
 */
export function prettyEventLine(event: PrettyLineEvent, paint: Paint, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'session_start':
      return paint('dim', `● session ${event.sessionId}${event.model ? ` · ${event.model}` : ''}`);
    case 'session_resume':
      return paint('dim', `● resumed ${event.sessionId}`);
    case 'tool_result':
      return event.isError
        ? `  ${paint('red', '✗')} ${brief(event.output)}`
        : `  ${paint('green', '✓')} ${paint('dim', brief(event.output, 80))}`;
    case 'mcp_tool_call_start':
      return `${paint('yellow', '⚙')} ${event.server}/${event.toolName} ${paint('dim', brief(event.input))}`;
    case 'approval_granted':
      return `  ${paint('green', 'approved')} (${event.scope})${event.by ? ` by ${event.by}` : ''}`;
    case 'approval_denied':
      return `  ${paint('red', 'denied')}: ${event.reason}`;
    case 'comment':
      return `${paint('blue', '✎')} ${event.text}`;
    case 'file_output':
      return `${paint('blue', '▤')} wrote ${event.fileName}`;
    case 'cost':
      return paint(
        'dim',
        `$ ${event.inputTokens} in · ${event.outputTokens} out${event.usd === undefined ? '' : ` · USD ${event.usd.toFixed(4)}`}`,
      );
    case 'rate_limit_error':
      return `${paint('red', '✗ rate limited:')} ${event.message}`;
    case 'context_exceeded':
      return `${paint('red', '✗ context window exceeded')}`;
    case 'log':
      return verbose ? paint('dim', `  [${event.source}] ${event.line}`) : undefined;
    case 'debug':
      return verbose ? paint('dim', `  [debug] ${event.message}`) : undefined;
    // Not shown by the pretty renderer.
    case 'message_start':
    case 'thinking_start':
    case 'thinking_stop':
    case 'image_output':
    case 'notice':
    case 'session_fork':
    case 'turn_start':
    case 'turn_end':
    case 'tool_call_start':
    case 'tool_input_delta':
    case 'mcp_tool_result':
    case 'skill_loaded':
    case 'skill_invoked':
    case 'plugin_loaded':
    case 'plugin_invoked':
      return undefined;
    default:
      exhaustive(event);
      return undefined;
  }
}

/**
 * A crash's lines: how it ended and the last lines of its stderr, unless a fatal error line already
 * showed that stderr (`shown`); none for a program that never ran (not installed), whose error line
 * said it all.
 */
export function crashLines(event: EventOf<'crash'>, shown: ReadonlySet<string>, paint: Paint): string[] {
  const stderr = event.stderr && !shown.has(event.stderr.trim()) ? event.stderr : '';
  if (event.exitCode === null && event.signal === null && stderr === '') return [];
  const how = event.signal ?? (event.exitCode === null ? 'did not start' : `exit ${event.exitCode}`);
  const lines = [`${paint('red', `✗ crashed (${how})`)}`];
  if (stderr) for (const row of stderr.split('\n').slice(-10)) lines.push(paint('dim', `  ${row}`));
  return lines;
}

/** The run's last line: how it ended (without a message a fatal error line already showed), its time, tokens and cost. */
export function runEndLine(event: EventOf<'run_end'>, shown: ReadonlySet<string>, paint: Paint): string {
  const t = event.totals;
  const summary = `${seconds(event.durationMs)} · ${t.inputTokens + t.outputTokens} tokens · USD ${t.usd.toFixed(4)}`;
  const mark = event.reason === 'completed' ? paint('green', '✔') : paint('red', '✘');
  // The reason said once (`budget exceeded`, not `budget_exceeded: budget exceeded`).
  const message = event.message && !shown.has(event.message) ? event.message : undefined;
  return `${mark} ${endReasonPhrase({ reason: event.reason, message })} · ${summary}`;
}
