/** The line the Action's workflow log writes for an event that needs nothing the log holds. */
import { exhaustive } from '../core/events/exhaustive.ts';
import type { AgentEvent } from '../core/events/index.ts';
import { failureOf } from '../github/report/event-log-lines.ts';
import { summarize } from '../github/report/summarize.ts';

/**
 * The events whose lines depend on what the log holds (the message being streamed, the open group,
 * the tool calls seen, the run's end closing the group): `createWorkflowLog` writes them itself.
 */
export type WorkflowLogStatefulType =
  | 'text_delta'
  | 'message_stop'
  | 'progress'
  | 'tool_call_start'
  | 'mcp_tool_call_start'
  | 'tool_call_ready'
  | 'run_end';

/** Every other event: a line of its own, or none. */
export type WorkflowLogLineEvent = Exclude<AgentEvent, { type: WorkflowLogStatefulType }>;

/**
 * The line for `event`, before it is redacted and stamped, or undefined for an event the workflow
 * log leaves out. Exhaustive: a new event type fails to compile here until it has its case.
 */
export function workflowLogLine(event: WorkflowLogLineEvent): string | undefined {
  switch (event.type) {
    case 'session_start':
      return `session started${event.model ? ` · model ${event.model}` : ''}`;
    case 'tool_result':
    case 'mcp_tool_result': {
      const took =
        'durationMs' in event && event.durationMs !== undefined ? ` (${Math.round(event.durationMs)} ms)` : '';
      const output = summarize(event.output);
      return `${event.isError ? 'failed' : 'done'}${took}${output ? `: ${output}` : ''}`;
    }
    case 'approval_request':
      return `approval asked: ${event.toolName} ${summarize(event.input)}${event.reason ? ` (${event.reason})` : ''}`;
    case 'approval_granted':
      return `approval ${event.approvalId} granted${event.by ? ` by ${event.by}` : ''} (${event.scope})`;
    case 'approval_denied':
      return `approval ${event.approvalId} ${event.timedOut ? 'timed out' : 'denied'}${event.by ? ` by ${event.by}` : ''}: ${event.reason}`;
    case 'file_output':
      return `file written: ${event.path}`;
    case 'comment':
      return `comment: ${event.text}`;
    case 'log':
      return `${event.source}: ${event.line}`;
    case 'error':
      return `error ${failureOf(event)}`;
    case 'auth_error':
      return `auth error: ${event.message}${event.guidance ? ` (${event.guidance})` : ''}`;
    case 'rate_limit_error':
    case 'context_exceeded':
    case 'crash':
      return failureOf(event);
    // Not written to the workflow log.
    case 'debug':
    case 'message_start':
    case 'thinking_start':
    case 'thinking_delta':
    case 'thinking_stop':
    case 'image_output':
    case 'notice':
    case 'cost':
    case 'session_resume':
    case 'session_fork':
    case 'turn_start':
    case 'turn_end':
    case 'tool_input_delta':
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
