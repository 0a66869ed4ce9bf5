import type { ExitInfo, NativeRecord, RunRequest, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { mcpToolNames } from '../../shared/mcp-tool-names.ts';
import {
  isObj,
  malformed,
  nonNegative,
  num,
  str,
  unknownRecord as unknown,
  whole,
} from '../../shared/record-fields.ts';
import { startTurn } from '../../shared/start-turn.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { textLine } from '../../shared/text-line.ts';
import { classifyApiError } from './gemini-error-table.ts';
import { type GeminiRecord, geminiMalformed, geminiRecord } from './gemini-record.ts';

type Of<T extends GeminiRecord['type']> = Extract<GeminiRecord, { type: T }>;

export interface GeminiTranslatorState extends TranslatorState {
  request?: RunRequest;
  turn: number;
  turnOpen: boolean;
  /** Messages, tool calls and their invariants; results carry no duration (the CLI gives none). */
  ledger: StreamLedger;
  /** Messages opened so far (their ids count them). */
  messages: number;
  /** The open message's whole text when a whole (non-delta) message replaced what was streamed. */
  wholeText?: string;
  model?: string;
  /** A typed error was already reported for this turn (the final `result` then adds none). */
  errorReported: boolean;
}

/**
 * Translates Gemini CLI's `--output-format stream-json` records (recorded from gemini 0.61.0,
 * src/adapters/agents/gemini/README.md):
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
  init: ({ debug, request, clock }) => ({
    debug,
    request,
    turn: 0,
    turnOpen: false,
    ledger: new StreamLedger(clock, { toolDurations: false, mcpToolName: geminiMcpName }),
    messages: 0,
    errorReported: false,
    // Every field the translation sets, present from the start: the state keeps one shape
    // (a field added later changes it, and each record's access slows; bench adapter-translation).
    sessionId: undefined,
    model: undefined,
    wholeText: undefined,
    outcome: undefined,
    terminal: undefined,
  }),

  translate(record: NativeRecord, state: GeminiTranslatorState): EventDraft[] {
    if (record.kind === 'text') return textLine(record.line);
    const value = record.value;
    if (!isObj(value)) return unknown(state, 'a JSON line that is not an object', value);
    const data = geminiRecord(value);
    if (data === 'unknown') return unknown(state, `unknown record type ${JSON.stringify(value.type)}`, value);
    if (data === 'malformed') return malformed(geminiMalformed[value.type as GeminiRecord['type']]);
    switch (data.type) {
      case 'init':
        return init(data, state);
      case 'message':
        return message(data, state);
      case 'tool_use':
        return toolUse(data, state);
      case 'tool_result':
        return toolResult(data, state);
      case 'error':
        return errorRecord(data, state);
      case 'result':
        return result(data, state);
      default: {
        const never: never = data;
        return unknown(state, 'unknown record', never);
      }
    }
  },

  finish(_exit: ExitInfo, state: GeminiTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    closeMessage(state, out);
    state.ledger.finish(out);
    return out;
  },
};

function init(value: Of<'init'>, state: GeminiTranslatorState): EventDraft[] {
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

function message(value: Of<'message'>, state: GeminiTranslatorState): EventDraft[] {
  if (value.role !== 'assistant')
    return value.role === 'user' ? [] : unknown(state, 'a message of another role', value);
  const text = str(value.content);
  if (text === undefined) return malformed('gemini: an assistant message without content');
  const out: EventDraft[] = [];
  startTurn(state, out);
  const { ledger } = state;
  if (!ledger.messageOpen) {
    state.messages++;
    state.wholeText = undefined;
    ledger.startMessage(out, `${state.sessionId ?? 'gemini'}-m${state.messages}`, state.model);
  }
  if (value.delta !== true) {
    const streamed = state.wholeText ?? ledger.messageText;
    if (streamed !== '') {
      // A whole message (not a delta) after deltas: only what was not streamed yet.
      ledger.text(out, text.startsWith(streamed) ? text.slice(streamed.length) : text);
      state.wholeText = text;
      return out;
    }
  }
  // The open message takes the text (no id: the ledger's open message is this one).
  ledger.text(out, text);
  if (state.wholeText !== undefined) state.wholeText += text;
  return out;
}

/** Closes the open message with its whole text (empty when nothing was said). */
function closeMessage(state: GeminiTranslatorState, out: EventDraft[]): void {
  if (!state.ledger.messageOpen) return;
  state.ledger.stopMessage(out, state.wholeText ?? state.ledger.messageText);
  state.wholeText = undefined;
}

/** `mcp_<server>_<tool>` (Gemini CLI's qualified MCP names) → server and tool; the server is the part before the next `_`. */
export const geminiMcpName = mcpToolNames('mcp_', '_');

function toolUse(value: Of<'tool_use'>, state: GeminiTranslatorState): EventDraft[] {
  const { tool_name: name, tool_id: id } = value;
  const out: EventDraft[] = [];
  startTurn(state, out);
  closeMessage(state, out);
  const input = value.parameters ?? {};
  state.ledger.startTool(out, id, name);
  state.ledger.readyTool(out, id, input);
  return out;
}

function toolResult(value: Of<'tool_result'>, state: GeminiTranslatorState): EventDraft[] {
  const id = value.tool_id;
  const out: EventDraft[] = [];
  const isError = value.status === 'error';
  const error = isObj(value.error) ? value.error : undefined;
  const output = isError ? (str(error?.message) ?? value.output ?? 'tool error') : (value.output ?? null);
  // A result for a call the stream never announced is announced first (as `unknown`), so the ids stay matched.
  const name = state.ledger.toolName(id) ?? 'unknown';
  state.ledger.toolResult(out, id, output, isError, name);
  return out;
}

function errorRecord(value: Of<'error'>, state: GeminiTranslatorState): EventDraft[] {
  const draft = classifyApiError(str(value.message) ?? 'Gemini CLI reported an error');
  if (draft.type === 'error') {
    // Warnings (loop detected, blocked hook, …) leave the run going.
    return [{ ...draft, recoverable: value.severity !== 'error' }];
  }
  state.errorReported = true;
  return [draft];
}

function result(value: Of<'result'>, state: GeminiTranslatorState): EventDraft[] {
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
