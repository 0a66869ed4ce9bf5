import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { isObj, num, type Obj, str, unknownRecord as unknown } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { opencodeCostDraft } from '../opencode/opencode-cost.ts';
import { type OpenCodeErrorInfo, openCodeErrorDraft } from '../opencode/opencode-errors.ts';
import { startTurn } from '../opencode/opencode-translator.ts';
import { readOpenCodeHttpEvent } from './opencode-http-event.ts';
import { closePart, partDelta, textPart } from './opencode-http-parts.ts';
import type { OpenCodeHttpTranslatorState } from './opencode-http-state.ts';
import { toolPart } from './opencode-http-tool-part.ts';

export type { OpenCodeHttpTranslatorState } from './opencode-http-state.ts';

/**
 * Translates the `GET /event` stream of `opencode serve` (one JSON object per SSE `data:`,
 * `{id, type, properties}`) into drafts. `message.part.updated` carries whole parts (`step-start`,
 * `text`, `reasoning`, `tool` with `state.status` pending → running → completed | error, `step-finish`
 * with tokens and cost), `message.part.delta` streams a part's `text`, `session.idle` ends the turn and
 * `session.error` reports failures (`{name, data: {message, statusCode}}`). Events of other sessions
 * are ignored once the session is known. `permission.*` events are answered by the session, not here.
 * Pure.
 */
export const openCodeHttpTranslator: Translator<OpenCodeHttpTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    announced: false,
    turnStarted: false,
    turnEnded: false,
    userMessages: {},
    parts: {},
    // Tool parts carry their own start and end times: the clock gives no durations.
    ledger: new StreamLedger(clock, { toolDurations: false }),
    toolsDone: {},
    mcpTools: {},
    errors: [],
    model: request?.model,
    cwd: request?.cwd,
  }),
  translate(record: NativeRecord, state: OpenCodeHttpTranslatorState): EventDraft[] {
    if (record.kind === 'text')
      return state.debug ? [{ type: 'debug', message: 'non-JSON SSE data', data: record.line }] : [];
    const value = record.value;
    if (!isObj(value) || typeof value.type !== 'string') return unknown(state, 'an event without a type', value);
    return translateEvent(value.type, isObj(value.properties) ? value.properties : {}, value, state);
  },
  finish(_exit, state: OpenCodeHttpTranslatorState): EventDraft[] {
    return endTurn(state, state.errors.length > 0 ? 'error' : 'exit');
  },
};

function translateEvent(type: string, props: Obj, raw: Obj, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const sessionId = str(props.sessionID) ?? (isObj(props.part) ? str(props.part.sessionID) : undefined);
  if (sessionId === undefined) return unknown(state, `event ${type}`, raw);
  if (state.sessionId !== undefined && sessionId !== state.sessionId) return [];
  const out = announce(sessionId, state);
  const event = readOpenCodeHttpEvent(raw);
  if (!event) return [...out, ...unknown(state, `event ${type}`, raw)];
  switch (event.type) {
    case 'message.updated':
      messageUpdated(event.properties, state);
      break;
    case 'message.part.updated':
      if (isObj(event.properties.part)) out.push(...partUpdated(event.properties.part, state));
      break;
    case 'message.part.delta':
      out.push(...partDelta(event.properties, state));
      break;
    case 'session.error':
      out.push(...startTurn(state), ...errorDrafts(event.properties.error, state));
      break;
    case 'session.idle':
      out.push(...endTurn(state, state.errors.length > 0 ? 'error' : 'end_turn'));
      break;
    default: {
      const never: never = event;
      out.push(...unknown(state, `event ${type}`, never));
    }
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
  // Idle before any step (a stray idle): not the end of our turn.
  if (!state.turnStarted && state.errors.length === 0 && stopReason === 'end_turn') return [];
  if (state.turnEnded) return [];
  const out: EventDraft[] = [...startTurn(state)];
  for (const part of Object.values(state.parts)) if (!part.ended) closePart(part, state, out);
  state.turnEnded = true;
  const failed = state.errors.length > 0;
  out.push({ type: 'turn_end', turn: 0, stopReason, result: state.lastText, isError: failed });
  state.outcome = failed
    ? { status: 'failed', message: state.errors.join('\n') }
    : { status: 'completed', output: state.lastText };
  return out;
}

function messageUpdated(props: Obj, state: OpenCodeHttpTranslatorState): void {
  const info = isObj(props.info) ? props.info : {};
  const id = str(info.id);
  if (info.role === 'user' && id) state.userMessages[id] = true;
  if (info.role === 'assistant') {
    const model = str(info.modelID);
    if (model && !state.model) state.model = model;
  }
}

function partUpdated(part: Obj, state: OpenCodeHttpTranslatorState): EventDraft[] {
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

/** `step-finish`: OpenCode's step cost, with the model of the session (`model` kept second, as before). */
function costDraft(part: Obj, model: string | undefined): DraftOf<'cost'> | undefined {
  const draft = opencodeCostDraft(part);
  if (!draft) return undefined;
  const { type, ...counts } = draft;
  return { type, model, ...counts };
}

const MAX_KEPT_ERRORS = 5;

/** What `opencode serve`'s `auth_error` advises. */
const OPENCODE_HTTP_ERRORS = { authGuidance: 'Check the provider API key in the OpenCode config or environment.' };

/** `session.error.error`: `{name, data: {message, statusCode, responseHeaders}}`. */
function errorDrafts(error: unknown, state: OpenCodeHttpTranslatorState): EventDraft[] {
  const info = sessionErrorInfo(error);
  if (state.errors.length < MAX_KEPT_ERRORS) state.errors.push(info.message);
  if (info.name === 'MessageAbortedError') return [];
  return [openCodeErrorDraft(info, OPENCODE_HTTP_ERRORS)];
}

function sessionErrorInfo(error: unknown): OpenCodeErrorInfo {
  const e = isObj(error) ? error : {};
  const data = isObj(e.data) ? e.data : {};
  const name = str(e.name) ?? 'UnknownError';
  const message = str(data.message) ?? str(e.message) ?? name;
  return {
    message,
    name,
    status: num(data.statusCode),
    headers: isObj(data.responseHeaders) ? data.responseHeaders : {},
  };
}
