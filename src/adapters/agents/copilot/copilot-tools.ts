import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, type Obj, str } from '../../shared/record-fields.ts';
import type { CopilotCallData } from './copilot-record.ts';
import type { CopilotTranslatorState } from './copilot-translator.ts';

/**
 * `assistant.message`: ends the streamed message (or gives a whole one, `--stream off`) and makes
 * the calls it requests ready with their complete input.
 */
export function assistantMessage(data: Obj, state: CopilotTranslatorState): EventDraft[] {
  const { ledger } = state;
  const out: EventDraft[] = [];
  const messageId = str(data.messageId);
  const content = str(data.content) ?? '';
  if (content) state.lastText = content;
  if (ledger.messageOpen) {
    ledger.stopMessage(out, content || null);
  } else if (content) {
    // Not streamed (`--stream off`): the whole message at once.
    ledger.startMessage(out, messageId, str(data.model));
    ledger.text(out, content, messageId);
    ledger.stopMessage(out, content);
  }
  const requests = Array.isArray(data.toolRequests) ? data.toolRequests.filter(isObj) : [];
  for (const request of requests) {
    const id = str(request.toolCallId);
    if (id) ledger.readyTool(out, id, request.arguments ?? {}, str(request.name) ?? 'unknown');
  }
  return out;
}

/** `tool.execution_start`: the call is ready (started first when it was not); an MCP call says its server. */
export function toolStart(data: CopilotCallData, state: CopilotTranslatorState): EventDraft[] {
  const id = data.toolCallId;
  const name = str(data.toolName) ?? 'unknown';
  const out: EventDraft[] = [];
  state.ledger.readyTool(out, id, data.arguments ?? {}, name);
  const server = str(data.mcpServerName) ?? str(data.mcpConfigServerName);
  if (server) {
    const tool = str(data.mcpToolName) ?? name;
    state.mcp[id] = { server, tool };
    out.push({ type: 'mcp_tool_call_start', toolCallId: id, server, toolName: tool, input: data.arguments ?? {} });
  }
  return out;
}

/** `tool.execution_complete`: the call's result (`mcp_tool_result` for an MCP call). */
export function toolComplete(data: CopilotCallData, state: CopilotTranslatorState): EventDraft[] {
  const id = data.toolCallId;
  const isError = data.success !== true;
  const result = isObj(data.result) ? data.result : undefined;
  const error = isObj(data.error) ? data.error : undefined;
  const output = isError
    ? (str(error?.message) ?? 'the tool failed')
    : (result?.structuredContent ?? str(result?.content) ?? str(result?.detailedContent) ?? '');
  const out: EventDraft[] = [];
  const mcp = state.mcp[id];
  if (mcp) {
    state.ledger.readyTool(out, id, {}, 'unknown');
    out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  } else {
    state.ledger.toolResult(out, id, output, isError, 'unknown');
  }
  return out;
}
