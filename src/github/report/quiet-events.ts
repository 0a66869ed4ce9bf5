import { exhaustive } from '../../core/events/exhaustive.ts';
import type { AgentEvent } from '../../core/events/index.ts';

/** True for events that change nothing a run's reports show (thinking, input deltas, debug, …). */
export function isQuiet(event: AgentEvent): boolean {
  switch (event.type) {
    case 'debug':
    case 'tool_input_delta':
    case 'thinking_start':
    case 'thinking_delta':
    case 'thinking_stop':
    case 'turn_start':
    case 'skill_loaded':
    case 'plugin_loaded':
    case 'session_fork':
      return true;
    // Not quiet.
    case 'auth_error':
    case 'rate_limit_error':
    case 'context_exceeded':
    case 'crash':
    case 'error':
    case 'log':
    case 'message_start':
    case 'text_delta':
    case 'message_stop':
    case 'image_output':
    case 'file_output':
    case 'progress':
    case 'comment':
    case 'notice':
    case 'cost':
    case 'run_end':
    case 'session_start':
    case 'session_resume':
    case 'turn_end':
    case 'tool_call_start':
    case 'tool_call_ready':
    case 'tool_result':
    case 'mcp_tool_call_start':
    case 'mcp_tool_result':
    case 'skill_invoked':
    case 'plugin_invoked':
    case 'approval_request':
    case 'approval_granted':
    case 'approval_denied':
      return false;
    default:
      exhaustive(event);
      return false;
  }
}
