import type { Translator } from '../../../core/adapter/index.ts';
import { createPiTranslator, type PiTranslatorState } from '../pi/pi-translator.ts';

/**
 * omp prints pi's JSON event stream (it is a fork of pi) plus session events of its own, which carry
 * nothing for the normalized stream (src/session/agent-session-events.ts in 18.2.3). Differences
 * the shared translator handles: `message_update` has no `partial` (tool calls are announced at
 * `toolcall_end`), and the process exits 1 when the last turn failed.
 */
export const OMP_QUIET_TYPES = [
  'advisor_cost_changed',
  'advisor_yielded',
  'auto_compaction_start',
  'auto_compaction_end',
  'config_warnings_changed',
  'goal_updated',
  'irc_message',
  'model_changed',
  'notice',
  'retry_fallback_applied',
  'retry_fallback_succeeded',
  'thinking_level_changed',
  'todo_auto_clear',
  'todo_reminder',
  'ttsr_triggered',
  'tool_stream_update',
  // RPC mode (--mode rpc): the protocol's opening frame and the session's command list and title.
  'ready',
  'available_commands_update',
  'session_info_update',
  'config_update',
  'command_output',
] as const;

export const ompTranslator: Translator<PiTranslatorState> = createPiTranslator({ ignoredTypes: OMP_QUIET_TYPES });
