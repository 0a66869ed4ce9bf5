import type { EventDraft } from '../events/index.ts';
import type { ToolHost, ToolResult } from './tool-host.ts';

/** One tool call an agent asked for, to run through the run's tool host. */
export interface ReportedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  signal: AbortSignal;
}

/**
 * Runs a tool call through the run's tool host (a run without one answers "this run offers no
 * tools") and reports it as the call's `tool_result` event, with its duration on `clock`. The one
 * tool relay of the Process protocol's controller, ACP's file requests and the demo agent.
 */
export async function callToolReported(
  tools: ToolHost | undefined,
  emit: (draft: EventDraft) => void,
  call: ReportedToolCall,
  clock: () => number = Date.now,
): Promise<ToolResult> {
  const { toolCallId, toolName, input, signal } = call;
  const started = clock();
  const result: ToolResult = tools
    ? await tools.call(toolName, input, { toolCallId, signal })
    : { ok: false, error: 'this run offers no tools' };
  emit({
    type: 'tool_result',
    toolCallId,
    toolName,
    output: result.ok ? result.value : result.error,
    isError: !result.ok,
    durationMs: Math.max(0, clock() - started),
  });
  return result;
}
