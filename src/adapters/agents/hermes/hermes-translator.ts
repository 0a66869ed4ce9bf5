import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { countOf, isObj, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { hermesErrorDrafts } from './hermes-errors.ts';
import { type HermesRecordOf, readHermesRecord } from './hermes-record.ts';

export { hermesErrorDrafts } from './hermes-errors.ts';

/**
 * Translates `hermes chat --query-file - --format stream-json` (hermes_cli/stream_json.py,
 * `StreamJsonEmitter`): one JSON object per stdout line, each with a `timestamp` in ms.
 *
 * - `{type: 'system', subtype: 'init', model, session_id}`: written first, before credentials are checked
 * - `{type: 'text', text}`: a streamed text delta
 * - `{type: 'tool_use', name, tool_call_id?, input?}`: a tool started (input only when the args are an object)
 * - `{type: 'tool_result', name, tool_call_id?, output, duration_ms, is_error}`: output capped at 5000 chars + `...`
 * - `{type: 'result', session_id, exit_code, text, tokens{input,output,total,cache_read,cache_write}, duration_ms, error?}`
 *
 * Not the seed's names (`message_start`, `text_delta`, `tool_call`, `usage`, `message_end`, …): those are
 * not in the source. Reasoning and other progress callbacks are not part of the protocol. MCP tools
 * are registered as `mcp_<server>_<tool>`; they come through `tool_use` like any other tool.
 */
export interface HermesState extends TranslatorState {
  resumeFrom?: string;
  /** The open message and the tool calls started and not yet answered. */
  ledger: StreamLedger;
  /** The text of the last message (the turn's result when the `result` record has none). */
  lastText: string;
  model?: string;
  /** Open calls without a `tool_call_id`, by tool name (results pair with the oldest). */
  anonymous: Record<string, string[]>;
  /** Open calls that are MCP tools: id → server and tool. */
  mcp: Record<string, { server: string; toolName: string }>;
  calls: number;
  turnStarted: boolean;
}

/** The translator of hermes' stream-json output (see {@link HermesState} for the records). */
export const hermesTranslator: Translator<HermesState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    resumeFrom: request?.resumeSessionId,
    // Hermes reports each tool's own duration (`duration_ms`): the clock gives none.
    ledger: new StreamLedger(clock, { toolDurations: false }),
    lastText: '',
    anonymous: {},
    mcp: {},
    calls: 0,
    turnStarted: false,
  }),

  translate(record: NativeRecord, state: HermesState): EventDraft[] {
    if (record.kind === 'text') return plainLine(record.line, state);
    const value = record.value;
    if (!isObj(value)) return unknownRecord(state, 'a hermes JSON line that is not an object', value);
    const native = readHermesRecord(value);
    if (!native) return unknownRecord(state, `unknown hermes record type ${JSON.stringify(value.type)}`, value);
    switch (native.type) {
      case 'system':
        return native.subtype === 'init'
          ? init(native, state)
          : unknownRecord(state, `hermes system/${String(native.subtype)}`, value);
      case 'text':
        return text(native.text, state);
      case 'tool_use':
        return toolUse(native, state);
      case 'tool_result':
        return toolResult(native, state);
      case 'result':
        return result(native, state);
      default: {
        const never: never = native;
        return unknownRecord(state, 'unknown hermes record', never);
      }
    }
  },
};

/**
 * A line that is not JSON: text the user should see (a hermes that printed plain text instead of
 * stream-json), unless the JSON stream is already under way: then it would land in the middle of the
 * streamed answer and is kept as a stdout log line instead.
 */
function plainLine(line: string, state: HermesState): EventDraft[] {
  if (line.trim() === '') return [];
  if (state.turnStarted) return [{ type: 'log', source: 'stdout', line }];
  return [{ type: 'text_delta', delta: `${line}\n` }];
}

function sessionDraft(sessionId: string, state: HermesState): EventDraft {
  state.sessionId = sessionId;
  return state.resumeFrom
    ? { type: 'session_resume', sessionId, previousSessionId: state.resumeFrom }
    : { type: 'session_start', sessionId, model: state.model };
}

function init(value: HermesRecordOf<'system'>, state: HermesState): EventDraft[] {
  const out: EventDraft[] = [];
  state.model = value.model;
  if (value.session_id) out.push(sessionDraft(value.session_id, state));
  startTurn(out, state);
  return out;
}

function startTurn(out: EventDraft[], state: HermesState): void {
  if (state.turnStarted) return;
  state.turnStarted = true;
  out.push({ type: 'turn_start' });
}

function text(delta: string, state: HermesState): EventDraft[] {
  if (delta === '') return [];
  const out: EventDraft[] = [];
  startTurn(out, state);
  if (!state.ledger.messageOpen) state.ledger.startMessage(out, undefined, state.model);
  state.ledger.text(out, delta);
  state.lastText = state.ledger.messageText;
  return out;
}

/** `mcp_<server>_<tool>`: the server is the first segment (server names with `_` cannot be told apart). */
export function hermesMcpTool(name: string): { server: string; toolName: string } | undefined {
  const match = /^mcp_([^_]+)_(.+)$/.exec(name);
  return match ? { server: match[1] as string, toolName: match[2] as string } : undefined;
}

function toolUse(value: HermesRecordOf<'tool_use'>, state: HermesState): EventDraft[] {
  const toolName = value.name ?? 'unknown';
  let toolCallId = value.tool_call_id;
  if (!toolCallId) {
    toolCallId = `hermes-${toolName}-${++state.calls}`;
    const queue = state.anonymous[toolName] ?? [];
    queue.push(toolCallId);
    state.anonymous[toolName] = queue;
  }
  const input = value.input ?? {};
  const out: EventDraft[] = [];
  startTurn(out, state);
  state.ledger.stopMessage(out);
  state.ledger.startTool(out, toolCallId, toolName);
  state.ledger.readyTool(out, toolCallId, input);
  const mcp = hermesMcpTool(toolName);
  if (mcp) {
    state.mcp[toolCallId] = mcp;
    out.push({ type: 'mcp_tool_call_start', toolCallId, server: mcp.server, toolName: mcp.toolName, input });
  }
  return out;
}

function toolResult(value: HermesRecordOf<'tool_result'>, state: HermesState): EventDraft[] {
  const toolName = value.name ?? 'unknown';
  const toolCallId = value.tool_call_id ?? state.anonymous[toolName]?.shift() ?? `hermes-${toolName}-${++state.calls}`;
  const out: EventDraft[] = [];
  if (!state.ledger.hasTool(toolCallId)) {
    // A result whose start was never seen: the ledger opens the call so the stream stays well formed.
    startTurn(out, state);
    state.ledger.stopMessage(out);
  }
  const output = value.output ?? '';
  const isError = value.is_error === true;
  state.ledger.toolResult(out, toolCallId, output, isError, toolName, value.duration_ms);
  const mcp = state.mcp[toolCallId];
  if (mcp) {
    delete state.mcp[toolCallId];
    out.push({ type: 'mcp_tool_result', toolCallId, server: mcp.server, toolName: mcp.toolName, output, isError });
  }
  return out;
}

function result(value: HermesRecordOf<'result'>, state: HermesState): EventDraft[] {
  const out: EventDraft[] = [];
  startTurn(out, state);
  state.ledger.stopMessage(out);
  if (value.session_id && !state.sessionId) out.push(sessionDraft(value.session_id, state));
  const finalText = value.text;
  // A reply that was never streamed (the agent answered without text deltas) still reaches the user.
  if (finalText && !state.lastText) {
    state.ledger.startMessage(out, undefined, state.model);
    state.ledger.text(out, finalText);
    state.ledger.stopMessage(out);
  }
  const cost = costDraft(value.tokens, state.model);
  if (cost) out.push(cost);
  const exitCode = value.exit_code;
  const durationMs = value.duration_ms;
  if (value.error || exitCode !== 0) {
    const message =
      value.error ?? (exitCode === 130 ? 'hermes was interrupted' : `hermes exited with code ${exitCode}`);
    out.push(...hermesErrorDrafts(message));
    out.push({ type: 'turn_end', stopReason: `exit_code ${exitCode}`, isError: true, durationMs });
    state.outcome = { status: 'failed', message };
  } else {
    const output = finalText || state.lastText;
    out.push({ type: 'turn_end', stopReason: 'completed', result: output, isError: false, durationMs });
    state.outcome = { status: 'completed', output };
  }
  // The result record closes hermes' one-shot run: it ends the run even if the process lingers.
  state.terminal = true;
  return out;
}

function costDraft(tokens: unknown, model: string | undefined): DraftOf<'cost'> | undefined {
  if (!isObj(tokens)) return undefined;
  const input = countOf(tokens.input) ?? 0;
  const output = countOf(tokens.output) ?? 0;
  const cacheRead = countOf(tokens.cache_read);
  const cacheWrite = countOf(tokens.cache_write);
  if (input + output + (cacheRead ?? 0) + (cacheWrite ?? 0) === 0) return undefined;
  // The session's totals for this run, reported once at the end.
  return {
    type: 'cost',
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    model,
  };
}
