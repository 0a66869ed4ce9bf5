import type { ExitInfo, NativeRecord, RunRequest, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import {
  isObj,
  malformed,
  nonNegative,
  num,
  type Obj,
  str,
  unknownRecord as unknown,
  whole,
} from '../../shared/record-fields.ts';
import { startTurn } from '../../shared/start-turn.ts';
import { textLine } from '../../shared/text-line.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';
import { classifyApiError } from './gemini-errors.ts';

export interface GeminiTranslatorState extends TranslatorState {
  request?: RunRequest;
  turn: number;
  turnOpen: boolean;
  /** The assistant message being streamed (`message` records with `delta: true`). */
  message?: { id: string; text: string };
  messages: number;
  /** Tool calls started and not yet answered: id → name. */
  tools: Map<string, string>;
  model?: string;
  /** A typed error was already reported for this turn (the final `result` then adds none). */
  errorReported: boolean;
}

/**
 * Translates Gemini CLI's `--output-format stream-json` records (recorded from gemini 0.61.0,
 * docs/adapters/gemini.md):
 *
 * - `init` {session_id, model} → `session_start` (+ `session_resume` when the request resumed), `turn_start`;
 * - `message` role `user` → nothing (the prompt echoed); role `assistant` with `delta: true` →
 *   `message_start` on the first chunk, `text_delta`; closed (`message_stop`) by a tool call or the end;
 * - `tool_use` {tool_name, tool_id, parameters} → `tool_call_start` + `tool_call_ready`
 *   (+ `mcp_tool_call_start` for `mcp_<server>_<tool>`);
 * - `tool_result` {tool_id, status, output, error} → `tool_result` (+ `mcp_tool_result`);
 * - `error` {severity, message} → a typed error (`auth_error`, `rate_limit_error`, `context_exceeded`,
 *   else `error`, recoverable when a warning);
 * - `result` {status, error?, stats} → `cost` (the process's totals, `cumulative`), `turn_end`, outcome.
 *
 * Gemini CLI's stream carries no thinking: thought parts stay inside the CLI.
 */
export const geminiTranslator: Translator<GeminiTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    request,
    turn: 0,
    turnOpen: false,
    messages: 0,
    tools: new Map(),
    errorReported: false,
  }),

  translate(record: NativeRecord, state: GeminiTranslatorState): EventDraft[] {
    try {
      if (record.kind === 'text') return textLine(record.line);
      const value = record.value;
      if (!isObj(value)) return unknown(state, 'a JSON line that is not an object', value);
      switch (value.type) {
        case 'init':
          return init(value, state);
        case 'message':
          return message(value, state);
        case 'tool_use':
          return toolUse(value, state);
        case 'tool_result':
          return toolResult(value, state);
        case 'error':
          return errorRecord(value, state);
        case 'result':
          return result(value, state);
        default:
          return unknown(state, `unknown record type ${JSON.stringify(value.type)}`, value);
      }
    } catch (error) {
      return translatorFailure('gemini', error);
    }
  },

  finish(_exit: ExitInfo, state: GeminiTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    closeMessage(state, out);
    return out;
  },
};

function init(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const sessionId = str(value.session_id);
  state.model = str(value.model) ?? state.model;
  if (sessionId && !state.sessionId) {
    state.sessionId = sessionId;
    out.push({ type: 'session_start', sessionId, model: state.model, cwd: state.request?.cwd });
    const previous = state.request?.resumeSessionId;
    if (previous) {
      out.push(
        previous === sessionId
          ? { type: 'session_resume', sessionId, previousSessionId: previous }
          : { type: 'session_fork', sessionId, forkedFrom: previous },
      );
    }
  }
  startTurn(state, out);
  return out;
}

function message(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  if (value.role !== 'assistant')
    return value.role === 'user' ? [] : unknown(state, 'a message of another role', value);
  const text = str(value.content);
  if (text === undefined) return malformed('gemini: an assistant message without content');
  const out: EventDraft[] = [];
  startTurn(state, out);
  if (!state.message) {
    state.messages++;
    state.message = { id: `${state.sessionId ?? 'gemini'}-m${state.messages}`, text: '' };
    out.push({ type: 'message_start', messageId: state.message.id, model: state.model });
  }
  if (value.delta !== true && state.message.text !== '') {
    // A whole message (not a delta) after deltas: only what was not streamed yet.
    const rest = text.startsWith(state.message.text) ? text.slice(state.message.text.length) : text;
    if (rest) out.push({ type: 'text_delta', delta: rest, messageId: state.message.id });
    state.message.text = text;
    return out;
  }
  if (text) out.push({ type: 'text_delta', delta: text, messageId: state.message.id });
  state.message.text += text;
  return out;
}

function closeMessage(state: GeminiTranslatorState, out: EventDraft[]): void {
  if (!state.message) return;
  out.push({ type: 'message_stop', messageId: state.message.id, text: state.message.text });
  state.message = undefined;
}

/** `mcp_<server>_<tool>` (Gemini CLI's qualified MCP names) → server and tool; the server is the part before the next `_`. */
export function geminiMcpName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith('mcp_')) return undefined;
  const rest = name.slice(4);
  const split = rest.indexOf('_');
  if (split <= 0 || split + 1 >= rest.length) return undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 1) };
}

function toolUse(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  const name = str(value.tool_name);
  const id = str(value.tool_id);
  if (!name || !id) return malformed('gemini: a tool_use without tool_name or tool_id');
  const out: EventDraft[] = [];
  startTurn(state, out);
  closeMessage(state, out);
  const input = value.parameters ?? {};
  state.tools.set(id, name);
  out.push({ type: 'tool_call_start', toolCallId: id, toolName: name });
  out.push({ type: 'tool_call_ready', toolCallId: id, toolName: name, input });
  const mcp = geminiMcpName(name);
  if (mcp) out.push({ type: 'mcp_tool_call_start', toolCallId: id, server: mcp.server, toolName: mcp.tool, input });
  return out;
}

function toolResult(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  const id = str(value.tool_id);
  if (!id) return malformed('gemini: a tool_result without tool_id');
  const out: EventDraft[] = [];
  let name = state.tools.get(id);
  if (name === undefined) {
    // A result for a call the stream never announced: announce it so the ids stay matched.
    name = 'unknown';
    out.push({ type: 'tool_call_start', toolCallId: id, toolName: name });
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName: name, input: {} });
  }
  state.tools.delete(id);
  const isError = value.status === 'error';
  const error = isObj(value.error) ? value.error : undefined;
  const output = isError ? (str(error?.message) ?? value.output ?? 'tool error') : (value.output ?? null);
  out.push({ type: 'tool_result', toolCallId: id, toolName: name, output, isError });
  const mcp = geminiMcpName(name);
  if (mcp)
    out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  return out;
}

function errorRecord(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  const text = str(value.message) ?? 'Gemini CLI reported an error';
  const draft = classifyApiError(text);
  if (draft.type === 'error') {
    // Warnings (loop detected, blocked hook, …) leave the run going.
    return [{ ...draft, recoverable: value.severity !== 'error' }];
  }
  state.errorReported = true;
  return [draft];
}

function result(value: Obj, state: GeminiTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  closeMessage(state, out);
  const cost = statsCost(value.stats, state);
  if (cost) out.push(cost);
  const failed = value.status === 'error';
  const error = isObj(value.error) ? value.error : undefined;
  const stats = isObj(value.stats) ? value.stats : undefined;
  if (failed) {
    const text = str(error?.message) ?? 'Gemini CLI failed';
    if (!state.errorReported) out.push(classifyApiError(text));
    state.outcome = { status: 'failed', message: text };
  } else {
    state.outcome = { status: 'completed' };
  }
  // `gemini -p` runs one turn: its result record ends the run even if the process lingers.
  state.terminal = true;
  out.push({
    type: 'turn_end',
    turn: state.turn || undefined,
    stopReason: failed ? (str(error?.type) ?? 'error') : undefined,
    isError: failed,
    durationMs: nonNegative(num(stats?.duration_ms)),
  });
  state.turnOpen = false;
  state.errorReported = false;
  return out;
}

/**
 * `stats` {input_tokens, output_tokens, cached, input, models} are the process's totals so far
 * (Gemini's `promptTokenCount` includes the cached part), so the draft is cumulative and the
 * input excludes cached tokens.
 */
function statsCost(stats: unknown, state: GeminiTranslatorState): DraftOf<'cost'> | undefined {
  if (!isObj(stats)) return undefined;
  const prompt = whole(num(stats.input_tokens) ?? 0);
  const cached = whole(num(stats.cached) ?? 0);
  const output = whole(num(stats.output_tokens) ?? 0);
  if (prompt === 0 && output === 0 && cached === 0) return undefined;
  const fresh = num(stats.input);
  const models = isObj(stats.models) ? Object.keys(stats.models) : [];
  return {
    type: 'cost',
    inputTokens: fresh !== undefined ? whole(fresh) : Math.max(0, prompt - cached),
    outputTokens: output,
    cacheReadTokens: cached,
    model: models.length === 1 ? models[0] : state.model,
    cumulative: true,
  };
}
