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
    default:
      return false;
  }
}
