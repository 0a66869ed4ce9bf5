import type { EventOf } from '../../core/events/index.ts';

// What `RunProgress` logs for the events whose whole effect on it is a line of text.

/** The events that only add a line to the progress log. */
export type LoggedEvent = EventOf<'image_output' | 'comment' | 'skill_invoked' | 'plugin_invoked' | 'log'>;

/** The events that can report a failure: the progress's last error and an `error` line in its log. */
export type FailureEvent = EventOf<
  'error' | 'auth_error' | 'rate_limit_error' | 'context_exceeded' | 'crash' | 'turn_end'
>;

/** The line a {@link LoggedEvent} adds to the log. */
export function logLineOf(event: LoggedEvent): string {
  switch (event.type) {
    case 'image_output':
      return `image ${event.mimeType}${event.path ? ` ${event.path}` : ''}`;
    case 'comment':
      return `comment: ${event.text}`;
    case 'skill_invoked':
      return `skill ${event.name}`;
    case 'plugin_invoked':
      return `plugin ${event.pluginId}${event.action ? ` ${event.action}` : ''}`;
    case 'log':
      return `${event.source}: ${event.line}`;
  }
}

/** The failure a {@link FailureEvent} reports; undefined for a turn that ended well or said nothing. */
export function failureOf(event: FailureEvent): string | undefined {
  switch (event.type) {
    case 'error':
      return `${event.code}: ${event.message}`;
    case 'auth_error':
      return `auth: ${event.message}${event.guidance ? ` (${event.guidance})` : ''}`;
    case 'rate_limit_error':
      return `rate limited: ${event.message}`;
    case 'context_exceeded':
      return `context exceeded${event.message ? `: ${event.message}` : ''}`;
    case 'crash': {
      const how = event.signal ? `signal ${event.signal}` : `exit code ${event.exitCode ?? '?'}`;
      const tail = event.stderr.trim().split('\n').at(-1) ?? '';
      return `crashed (${how})${tail ? `: ${tail}` : ''}`;
    }
    case 'turn_end':
      return event.isError && event.result ? `turn failed: ${event.result}` : undefined;
  }
}
