import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, malformed, num, type Obj, str } from '../../shared/record-fields.ts';
import { OPENCODE_MCP_SERVER } from '../opencode/opencode-translator.ts';
import type { OpenCodeHttpTranslatorState } from './opencode-http-state.ts';

const MCP_PREFIX = `${OPENCODE_MCP_SERVER}_`;

/**
 * A tool part (`state.status` pending → running → completed | error): `start` at its first sight,
 * `ready` once its input is known, the result once done. MCP tools (`agent_mux_<tool>`) give
 * `mcp_tool_call_start` with the input and `mcp_tool_result` instead.
 */
export function toolPart(part: Obj, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const toolName = str(part.tool);
  const toolCallId = str(part.callID) ?? str(part.id);
  if (!toolName || !toolCallId) return malformed('tool part without a tool name or call id');
  if (state.toolsDone[toolCallId]) return [];
  const toolState = isObj(part.state) ? part.state : {};
  const status = str(toolState.status);
  const input = toolState.input ?? {};
  const hasInput = status === 'running' || status === 'completed' || status === 'error';
  const done = status === 'completed' || status === 'error';
  const isError = status === 'error';
  const output = isError ? (toolState.error ?? 'tool failed') : toolState.output;
  if (done) state.toolsDone[toolCallId] = true;
  const out: EventDraft[] = [];
  if (toolName.startsWith(MCP_PREFIX) && toolName.length > MCP_PREFIX.length) {
    const server = OPENCODE_MCP_SERVER;
    const name = toolName.slice(MCP_PREFIX.length);
    const track = state.mcpTools[toolCallId] ?? { ready: false };
    state.mcpTools[toolCallId] = track;
    if (!track.ready && hasInput) {
      track.ready = true;
      out.push({ type: 'mcp_tool_call_start', toolCallId, server, toolName: name, input });
    }
    if (done) out.push({ type: 'mcp_tool_result', toolCallId, server, toolName: name, output, isError });
    return out;
  }
  state.ledger.startTool(out, toolCallId, toolName);
  if (hasInput) state.ledger.readyTool(out, toolCallId, input);
  if (done) {
    const time = isObj(toolState.time) ? toolState.time : {};
    const started = num(time.start);
    const ended = num(time.end);
    const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : undefined;
    state.ledger.toolResult(out, toolCallId, output, isError, toolName, durationMs);
  }
  return out;
}
