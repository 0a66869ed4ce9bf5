import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';

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
  messageOpen: boolean;
  messageText: string;
  model?: string;
  /** Open calls without a `tool_call_id`, by tool name (results pair with the oldest). */
  anonymous: Record<string, string[]>;
  /** Open calls that are MCP tools: id → server and tool. */
  mcp: Record<string, { server: string; toolName: string }>;
  /** Ids of the calls started so far (a result for any other id opens its call first). */
  started: Record<string, true>;
  calls: number;
  turnStarted: boolean;
}

export const hermesTranslator: Translator<HermesState> = {
  init: ({ debug, request }) => ({
    debug,
    resumeFrom: request?.resumeSessionId,
    messageOpen: false,
    messageText: '',
    anonymous: {},
    mcp: {},
    started: {},
    calls: 0,
    turnStarted: false,
  }),

  translate(record: NativeRecord, state: HermesState): EventDraft[] {
    try {
      if (record.kind === 'text') return plainLine(record.line, state);
      const value = record.value;
      if (!isObject(value)) return unknown(state, 'a hermes JSON line that is not an object', value);
      switch (value.type) {
        case 'system':
          return value.subtype === 'init'
            ? init(value, state)
            : unknown(state, `hermes system/${String(value.subtype)}`, value);
        case 'text':
          return text(value, state);
        case 'tool_use':
          return toolUse(value, state);
        case 'tool_result':
          return toolResult(value, state);
        case 'result':
          return result(value, state);
        default:
          return unknown(state, `unknown hermes record type ${JSON.stringify(value.type)}`, value);
      }
    } catch (error) {
      return [
        {
          type: 'error',
          code: 'malformed_record',
          message: `hermes record could not be translated: ${String(error)}`,
          recoverable: true,
        },
      ];
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

function init(value: Record<string, unknown>, state: HermesState): EventDraft[] {
  const out: EventDraft[] = [];
  state.model = str(value.model);
  const sessionId = str(value.session_id);
  if (sessionId) {
    state.sessionId = sessionId;
    out.push(
      state.resumeFrom
        ? { type: 'session_resume', sessionId, previousSessionId: state.resumeFrom }
        : { type: 'session_start', sessionId, model: state.model },
    );
  }
  out.push(...startTurn(state));
  return out;
}

function startTurn(state: HermesState): EventDraft[] {
  if (state.turnStarted) return [];
  state.turnStarted = true;
  return [{ type: 'turn_start' }];
}

function text(value: Record<string, unknown>, state: HermesState): EventDraft[] {
  const delta = typeof value.text === 'string' ? value.text : '';
  if (delta === '') return [];
  const out: EventDraft[] = [...startTurn(state)];
  if (!state.messageOpen) {
    state.messageOpen = true;
    state.messageText = '';
    out.push({ type: 'message_start', model: state.model });
  }
  state.messageText += delta;
  out.push({ type: 'text_delta', delta });
  return out;
}

function closeMessage(state: HermesState): EventDraft[] {
  if (!state.messageOpen) return [];
  state.messageOpen = false;
  return [{ type: 'message_stop', text: state.messageText }];
}

/** `mcp_<server>_<tool>`: the server is the first segment (server names with `_` cannot be told apart). */
export function hermesMcpTool(name: string): { server: string; toolName: string } | undefined {
  const match = /^mcp_([^_]+)_(.+)$/.exec(name);
  return match ? { server: match[1] as string, toolName: match[2] as string } : undefined;
}

function toolUse(value: Record<string, unknown>, state: HermesState): EventDraft[] {
  const toolName = str(value.name) ?? 'unknown';
  let toolCallId = str(value.tool_call_id);
  if (!toolCallId) {
    toolCallId = `hermes-${toolName}-${++state.calls}`;
    const queue = state.anonymous[toolName] ?? [];
    queue.push(toolCallId);
    state.anonymous[toolName] = queue;
  }
  const input = value.input ?? {};
  state.started[toolCallId] = true;
  const out: EventDraft[] = [...startTurn(state), ...closeMessage(state)];
  out.push({ type: 'tool_call_start', toolCallId, toolName });
  out.push({ type: 'tool_call_ready', toolCallId, toolName, input });
  const mcp = hermesMcpTool(toolName);
  if (mcp) {
    state.mcp[toolCallId] = mcp;
    out.push({ type: 'mcp_tool_call_start', toolCallId, server: mcp.server, toolName: mcp.toolName, input });
  }
  return out;
}

function toolResult(value: Record<string, unknown>, state: HermesState): EventDraft[] {
  const toolName = str(value.name) ?? 'unknown';
  let toolCallId = str(value.tool_call_id);
  const out: EventDraft[] = [];
  if (!toolCallId) toolCallId = state.anonymous[toolName]?.shift();
  if (!toolCallId) toolCallId = `hermes-${toolName}-${++state.calls}`;
  if (!state.started[toolCallId]) {
    // A result whose start was never seen: open the call so the stream stays well formed.
    state.started[toolCallId] = true;
    out.push(
      ...startTurn(state),
      ...closeMessage(state),
      { type: 'tool_call_start', toolCallId, toolName },
      { type: 'tool_call_ready', toolCallId, toolName, input: {} },
    );
  }
  const output = typeof value.output === 'string' ? value.output : (value.output ?? '');
  const isError = value.is_error === true;
  const durationMs = num(value.duration_ms);
  out.push({ type: 'tool_result', toolCallId, toolName, output, isError, durationMs });
  const mcp = state.mcp[toolCallId];
  if (mcp) {
    delete state.mcp[toolCallId];
    out.push({ type: 'mcp_tool_result', toolCallId, server: mcp.server, toolName: mcp.toolName, output, isError });
  }
  return out;
}

function result(value: Record<string, unknown>, state: HermesState): EventDraft[] {
  const out: EventDraft[] = [...startTurn(state), ...closeMessage(state)];
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionId) {
    state.sessionId = sessionId;
    out.push(
      state.resumeFrom
        ? { type: 'session_resume', sessionId, previousSessionId: state.resumeFrom }
        : { type: 'session_start', sessionId, model: state.model },
    );
  }
  const finalText = typeof value.text === 'string' ? value.text : '';
  // A reply that was never streamed (the agent answered without text deltas) still reaches the user.
  if (finalText && !state.messageText) {
    out.push(
      { type: 'message_start', model: state.model },
      { type: 'text_delta', delta: finalText },
      { type: 'message_stop', text: finalText },
    );
  }
  const cost = costDraft(value.tokens, state.model);
  if (cost) out.push(cost);
  const exitCode = typeof value.exit_code === 'number' ? value.exit_code : 0;
  const error = str(value.error);
  const durationMs = num(value.duration_ms);
  if (error || exitCode !== 0) {
    const message = error ?? (exitCode === 130 ? 'hermes was interrupted' : `hermes exited with code ${exitCode}`);
    out.push(...hermesErrorDrafts(message));
    out.push({ type: 'turn_end', stopReason: `exit_code ${exitCode}`, isError: true, durationMs });
    state.outcome = { status: 'failed', message };
  } else {
    out.push({
      type: 'turn_end',
      stopReason: 'completed',
      result: finalText || state.messageText,
      isError: false,
      durationMs,
    });
    state.outcome = { status: 'completed', output: finalText || state.messageText };
  }
  // The result record closes hermes' one-shot run: it ends the run even if the process lingers.
  state.terminal = true;
  return out;
}

/** Hermes reports provider failures only as text in `result.error`. */
export function hermesErrorDrafts(message: string): EventDraft[] {
  if (/\b401\b|\b403\b|authenticat|unauthori[sz]ed|invalid (x-)?api[- ]key|no api key|credentials?/i.test(message)) {
    return [
      { type: 'auth_error', message, guidance: 'Configure a provider key (~/.hermes/.env) or run `hermes auth`.' },
    ];
  }
  if (/\b429\b|rate[- ]limit|too many requests|quota/i.test(message)) {
    const retry = /retry[- ]after:?\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i.exec(message);
    return [
      {
        type: 'rate_limit_error',
        message,
        retryAfterMs: retry ? Number(retry[1]) * (retry[2] === 'ms' ? 1 : 1000) : undefined,
      },
    ];
  }
  if (/context (window|length)|too many tokens|prompt is too long|maximum context/i.test(message)) {
    return [{ type: 'context_exceeded', message }];
  }
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}

function costDraft(tokens: unknown, model: string | undefined): DraftOf<'cost'> | undefined {
  if (!isObject(tokens)) return undefined;
  const input = int(tokens.input) ?? 0;
  const output = int(tokens.output) ?? 0;
  const cacheRead = int(tokens.cache_read);
  const cacheWrite = int(tokens.cache_write);
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

function unknown(state: HermesState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function int(value: unknown): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : Math.floor(n);
}
