import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { isObj as isObject, num, str, unknownRecord as unknown } from '../../shared/record-fields.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';
import { OPENCODE_MCP_SERVER, opencodeCostDraft, startTurn } from '../opencode/opencode-translator.ts';

interface PartTrack {
  kind: 'text' | 'reasoning';
  messageId?: string;
  /** The text shown so far (deltas, or the part's text when it arrived whole). */
  shown: string;
  ended: boolean;
}

export interface OpenCodeHttpTranslatorState extends TranslatorState {
  announced: boolean;
  turnStarted: boolean;
  turnEnded: boolean;
  /** User messages: their parts (the prompt) are not the agent's output. */
  userMessages: Record<string, true>;
  parts: Record<string, PartTrack>;
  /** Per tool call id: what was reported (`start`, `ready`, `result`). */
  tools: Record<string, { ready: boolean; done: boolean }>;
  lastText?: string;
  errors: string[];
  model?: string;
  cwd?: string;
}

/**
 * Translates the `GET /event` stream of `opencode serve` (one JSON object per SSE `data:`,
 * `{id, type, properties}`) into drafts. `message.part.updated` carries whole parts (`step-start`,
 * `text`, `reasoning`, `tool` with `state.status` pending → running → completed | error, `step-finish`
 * with tokens and cost), `message.part.delta` streams a part's `text`, `session.idle` ends the turn and
 * `session.error` reports failures (`{name, data: {message, statusCode}}`). Events of other sessions
 * are ignored once the session is known. `permission.*` events are answered by the session, not here.
 * Pure, never throws.
 */
export const openCodeHttpTranslator: Translator<OpenCodeHttpTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    announced: false,
    turnStarted: false,
    turnEnded: false,
    userMessages: {},
    parts: {},
    tools: {},
    errors: [],
    model: request?.model,
    cwd: request?.cwd,
  }),
  translate(record: NativeRecord, state: OpenCodeHttpTranslatorState): EventDraft[] {
    try {
      if (record.kind === 'text')
        return state.debug ? [{ type: 'debug', message: 'non-JSON SSE data', data: record.line }] : [];
      const value = record.value;
      if (!isObject(value) || typeof value.type !== 'string') return unknown(state, 'an event without a type', value);
      return translateEvent(value.type, isObject(value.properties) ? value.properties : {}, value, state);
    } catch (error) {
      return translatorFailure('opencode-http', error);
    }
  },
  finish(_exit, state: OpenCodeHttpTranslatorState): EventDraft[] {
    return endTurn(state, state.errors.length > 0 ? 'error' : 'exit');
  },
};

function translateEvent(
  type: string,
  props: Record<string, unknown>,
  raw: Record<string, unknown>,
  state: OpenCodeHttpTranslatorState,
): EventDraft[] {
  const sessionId = str(props.sessionID) ?? (isObject(props.part) ? str(props.part.sessionID) : undefined);
  if (sessionId === undefined) return unknown(state, `event ${type}`, raw);
  if (state.sessionId !== undefined && sessionId !== state.sessionId) return [];
  const out = announce(sessionId, state);
  switch (type) {
    case 'message.updated':
      out.push(...messageUpdated(props, state));
      break;
    case 'message.part.updated':
      if (isObject(props.part)) out.push(...partUpdated(props.part, state));
      break;
    case 'message.part.delta':
      out.push(...partDelta(props, state));
      break;
    case 'session.error':
      out.push(...startTurn(state), ...errorDrafts(props.error, state));
      break;
    case 'session.idle':
      out.push(...endTurn(state, state.errors.length > 0 ? 'error' : 'end_turn'));
      break;
    default:
      out.push(...unknown(state, `event ${type}`, raw));
  }
  return out;
}

function announce(sessionId: string, state: OpenCodeHttpTranslatorState): EventDraft[] {
  if (state.announced) return [];
  state.announced = true;
  state.sessionId = sessionId;
  return [{ type: 'session_start', sessionId, model: state.model, cwd: state.cwd }];
}

function endTurn(state: OpenCodeHttpTranslatorState, stopReason: string): EventDraft[] {
  if (!state.turnStarted && state.errors.length === 0) {
    // Idle before any step (a stray idle): not the end of our turn.
    if (stopReason === 'end_turn') return [];
  }
  if (state.turnEnded) return [];
  const out: EventDraft[] = [...startTurn(state)];
  for (const [id, part] of Object.entries(state.parts)) if (!part.ended) out.push(...closePart(id, part));
  state.turnEnded = true;
  const failed = state.errors.length > 0;
  out.push({ type: 'turn_end', turn: 0, stopReason, result: state.lastText, isError: failed });
  state.outcome = failed
    ? { status: 'failed', message: state.errors.join('\n') }
    : { status: 'completed', output: state.lastText };
  return out;
}

function messageUpdated(props: Record<string, unknown>, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const info = isObject(props.info) ? props.info : {};
  const id = str(info.id);
  if (info.role === 'user' && id) state.userMessages[id] = true;
  if (info.role === 'assistant') {
    const model = str(info.modelID);
    if (model && !state.model) state.model = model;
  }
  return [];
}

function partUpdated(part: Record<string, unknown>, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const messageId = str(part.messageID);
  if (messageId && state.userMessages[messageId]) return [];
  const id = str(part.id);
  switch (part.type) {
    case 'step-start':
      return startTurn(state);
    case 'text':
    case 'reasoning':
      return id ? textPart(id, part, part.type, state) : [];
    case 'tool':
      return [...startTurn(state), ...toolPart(part, state)];
    case 'step-finish': {
      const cost = costDraft(part, state.model);
      return cost ? [cost] : [];
    }
    default:
      return unknown(state, `part ${String(part.type)}`, part);
  }
}

function textPart(
  id: string,
  part: Record<string, unknown>,
  kind: 'text' | 'reasoning',
  state: OpenCodeHttpTranslatorState,
): EventDraft[] {
  const out: EventDraft[] = [];
  let track = state.parts[id];
  if (!track) {
    out.push(...startTurn(state));
    track = { kind, messageId: str(part.messageID), shown: '', ended: false };
    state.parts[id] = track;
    out.push(
      kind === 'text'
        ? { type: 'message_start', messageId: track.messageId, model: state.model }
        : { type: 'thinking_start', messageId: track.messageId },
    );
  }
  if (track.ended) return out;
  const text = str(part.text) ?? '';
  // A whole part (or one that grew past the deltas): show what is new.
  if (text.startsWith(track.shown) && text.length > track.shown.length) {
    out.push(deltaDraft(track, text.slice(track.shown.length)));
    track.shown = text;
  }
  const time = isObject(part.time) ? part.time : {};
  if (num(time.end) !== undefined) out.push(...closePart(id, track, text, state));
  return out;
}

function partDelta(props: Record<string, unknown>, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const id = str(props.partID);
  const delta = str(props.delta);
  const track = id ? state.parts[id] : undefined;
  if (!track || track.ended || props.field !== 'text' || !delta) return [];
  track.shown += delta;
  return [deltaDraft(track, delta)];
}

function deltaDraft(track: PartTrack, delta: string): EventDraft {
  return track.kind === 'text'
    ? { type: 'text_delta', delta, messageId: track.messageId }
    : { type: 'thinking_delta', delta, messageId: track.messageId };
}

function closePart(_id: string, track: PartTrack, text?: string, state?: OpenCodeHttpTranslatorState): EventDraft[] {
  track.ended = true;
  const whole = text ?? track.shown;
  if (track.kind === 'reasoning')
    return [{ type: 'thinking_stop', messageId: track.messageId, thinking: whole || undefined }];
  if (state && whole) state.lastText = whole;
  return [{ type: 'message_stop', messageId: track.messageId, text: whole || undefined }];
}

/** A tool part: `start` at its first sight, `ready` once its input is known, the result once done. */
function toolPart(part: Record<string, unknown>, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const toolName = str(part.tool);
  const toolCallId = str(part.callID) ?? str(part.id);
  if (!toolName || !toolCallId)
    return [
      {
        type: 'error',
        code: 'malformed_record',
        message: 'tool part without a tool name or call id',
        recoverable: true,
      },
    ];
  const toolState = isObject(part.state) ? part.state : {};
  const status = str(toolState.status);
  const prefix = `${OPENCODE_MCP_SERVER}_`;
  const mcp = toolName.startsWith(prefix) && toolName.length > prefix.length;
  const out: EventDraft[] = [];
  let track = state.tools[toolCallId];
  if (!track) {
    track = { ready: false, done: false };
    state.tools[toolCallId] = track;
    if (!mcp) out.push({ type: 'tool_call_start', toolCallId, toolName });
  }
  if (track.done) return out;
  const input = toolState.input ?? {};
  const hasInput = status === 'running' || status === 'completed' || status === 'error';
  if (!track.ready && hasInput) {
    track.ready = true;
    out.push(
      mcp
        ? {
            type: 'mcp_tool_call_start',
            toolCallId,
            server: OPENCODE_MCP_SERVER,
            toolName: toolName.slice(prefix.length),
            input,
          }
        : { type: 'tool_call_ready', toolCallId, toolName, input },
    );
  }
  if (status === 'completed' || status === 'error') {
    track.done = true;
    const isError = status === 'error';
    const output = isError ? (toolState.error ?? 'tool failed') : toolState.output;
    const time = isObject(toolState.time) ? toolState.time : {};
    const started = num(time.start);
    const ended = num(time.end);
    const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : undefined;
    out.push(
      mcp
        ? {
            type: 'mcp_tool_result',
            toolCallId,
            server: OPENCODE_MCP_SERVER,
            toolName: toolName.slice(prefix.length),
            output,
            isError,
          }
        : { type: 'tool_result', toolCallId, toolName, output, isError, durationMs },
    );
  }
  return out;
}

/** `step-finish`: OpenCode's step cost, with the model of the session (`model` kept second, as before). */
function costDraft(part: Record<string, unknown>, model: string | undefined): DraftOf<'cost'> | undefined {
  const draft = opencodeCostDraft(part);
  if (!draft) return undefined;
  const { type, ...counts } = draft;
  return { type, model, ...counts };
}

const MAX_KEPT_ERRORS = 5;

/** `session.error.error`: `{name, data: {message, statusCode, responseHeaders}}`. */
function errorDrafts(error: unknown, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const e = isObject(error) ? error : {};
  const data = isObject(e.data) ? e.data : {};
  const name = str(e.name) ?? 'UnknownError';
  const message = str(data.message) ?? str(e.message) ?? name;
  const status = num(data.statusCode);
  if (state.errors.length < MAX_KEPT_ERRORS) state.errors.push(message);
  if (name === 'MessageAbortedError') return [];
  if (name === 'ProviderAuthError' || status === 401 || status === 403) {
    return [
      { type: 'auth_error', message, guidance: 'Check the provider API key in the OpenCode config or environment.' },
    ];
  }
  if (status === 429) {
    const headers = isObject(data.responseHeaders) ? data.responseHeaders : {};
    const seconds = Number(str(headers['retry-after']));
    return [
      {
        type: 'rate_limit_error',
        message,
        retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined,
      },
    ];
  }
  if (name === 'ContextOverflowError' || /context (length|window)/i.test(message))
    return [{ type: 'context_exceeded', message }];
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}
