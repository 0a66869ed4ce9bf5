import type { EventDraft } from '../../../core/events/index.ts';
import type { AcpSessionLog } from './acp-session-log.ts';

/**
 * Reports the calls the agent's log has and ACP never reported, each as the failed tool step it
 * was (`tool_call_start`, `tool_call_ready`, `tool_result` with `isError`), in the shape the agent's
 * own ACP tool calls take. A run whose sandbox refused every command then shows them, and does not
 * end ✅ as if it had tried nothing. A log that cannot be read reports nothing.
 */
export async function reportUnreported(
  log: AcpSessionLog,
  env: Readonly<Record<string, string | undefined>>,
  sessionId: string,
  reported: ReadonlySet<string>,
  emit: (draft: EventDraft) => void,
): Promise<void> {
  const calls = await log.unreported(env, sessionId, reported).catch(() => []);
  for (const call of calls) {
    const toolName = call.kind;
    const input = { title: call.title, kind: call.kind, rawInput: { command: call.title } };
    emit({ type: 'tool_call_start', toolCallId: call.toolCallId, toolName });
    emit({ type: 'tool_call_ready', toolCallId: call.toolCallId, toolName, input });
    emit({
      type: 'tool_result',
      toolCallId: call.toolCallId,
      toolName,
      output: { ...(call.exitCode !== undefined ? { exitCode: call.exitCode } : {}), output: call.output },
      isError: true,
    });
  }
}
