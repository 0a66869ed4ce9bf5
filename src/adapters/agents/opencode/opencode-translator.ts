import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { isObj, malformed, num, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { opencodeCostDraft } from './opencode-cost.ts';
import { OPENCODE_PROVIDER_ERRORS, openCodeErrorDraft, openCodeErrorInfo } from './opencode-errors.ts';
import { openCodeRecordType } from './opencode-record.ts';

export { opencodeCostDraft } from './opencode-cost.ts';

/**
 * The name the plan gives the run's MCP server in the CLI's config. OpenCode (and Kilo) expose an
 * MCP tool to the model as `<server>_<tool>`, so tool parts named `agent_mux_<tool>` are MCP calls.
 */
export const OPENCODE_MCP_SERVER = 'agent_mux';
/** OpenCode's shell tool (also Kilo's): the name in tool parts and in `permission` config. */
export const OPENCODE_SHELL_TOOL = 'bash';

export interface OpenCodeTranslatorState extends TranslatorState {
  /** A session event (start / resume / fork) was emitted. */
  announced: boolean;
  turnStarted: boolean;
  turnEnded: boolean;
  /** Steps (one assistant message each) seen so far. */
  steps: number;
  /** The assistant message of the open step (and the thinking shown in it). */
  ledger: StreamLedger;
  /** The last text part: the turn's result. */
  lastText?: string;
  /** Tool call ids already reported (a part reported twice is ignored). */
  tools: Record<string, true>;
  /** Error messages the CLI reported (it ends with exit code 1 after them). */
  errors: string[];
  model?: string;
  cwd?: string;
  resumeSessionId?: string;
  fork: boolean;
  /** Prefixes of MCP tool names (`agent_mux_`). */
  mcpPrefixes: string[];
}

/**
 * Translates `opencode run --format json` (and `kilo run --format json`): one JSON object per line,
 * `{type, timestamp, sessionID, …}` with `type` one of `step_start`, `text`, `reasoning` (with
 * `--thinking`), `tool_use` (a tool part once completed or failed), `step_finish` (tokens, cost,
 * reason) and `error` (`{error: {name, data: {message, statusCode, …}}}`, or a plain string in Kilo).
 * Parts arrive whole: a text part when it ends, so each gives one `text_delta`. Pure.
 */
export const openCodeTranslator: Translator<OpenCodeTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    announced: false,
    turnStarted: false,
    turnEnded: false,
    steps: 0,
    // Tool parts carry their own start and end times: the clock gives no durations.
    ledger: new StreamLedger(clock, { toolDurations: false }),
    tools: {},
    errors: [],
    model: request?.model,
    cwd: request?.cwd,
    resumeSessionId: request?.resumeSessionId,
    fork: request?.fork === true && request.resumeSessionId !== undefined,
    mcpPrefixes: [`${OPENCODE_MCP_SERVER}_`],
  }),
  translate(record: NativeRecord, state: OpenCodeTranslatorState): EventDraft[] {
    if (record.kind === 'text') return textLine(record.line, state);
    const value = record.value;
    if (!isObj(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
    return translateEvent(value, state);
  },
  stderr(line: string): EventDraft[] {
    return line.trim() === '' ? [] : [logDraft('stderr', line)];
  },
  finish(exit, state: OpenCodeTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    state.ledger.finish(out);
    if (state.turnStarted && !state.turnEnded) {
      state.turnEnded = true;
      const failed = state.errors.length > 0 || (exit.exitCode !== 0 && exit.exitCode !== null);
      out.push({
        type: 'turn_end',
        turn: 0,
        stopReason: failed ? 'error' : 'exit',
        result: state.lastText,
        isError: failed,
      });
    }
    if (!state.outcome && state.errors.length > 0)
      state.outcome = { status: 'failed', message: state.errors.join('\n') };
    return out;
  },
};

function translateEvent(value: Obj, state: OpenCodeTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const sessionId = str(value.sessionID);
  if (sessionId && !state.announced) out.push(announce(sessionId, state));
  const type = openCodeRecordType(value.type);
  if (type === undefined)
    return [...out, ...unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value)];
  const part = isObj(value.part) ? value.part : undefined;
  switch (type) {
    case 'step_start':
      state.ledger.stopMessage(out);
      pushTurnStart(out, state);
      state.steps++;
      state.ledger.startMessage(out, str(part?.messageID), state.model);
      return out;
    case 'text': {
      const text = str(part?.text) ?? '';
      if (text === '') return out;
      openMessage(out, state, str(part?.messageID));
      state.ledger.text(out, text);
      state.lastText = text;
      return out;
    }
    case 'reasoning': {
      const text = str(part?.text) ?? '';
      if (text === '') return out;
      openMessage(out, state, str(part?.messageID));
      state.ledger.thinking(out, text);
      state.ledger.stopThinking(out);
      return out;
    }
    case 'tool_use':
      if (!part) return [...out, ...malformed('tool_use without a part')];
      pushTurnStart(out, state);
      toolPart(out, part, state);
      return out;
    case 'step_finish':
      stepFinish(out, part, state);
      return out;
    case 'error':
      out.push(errorDraft(value.error, state));
      return out;
    default: {
      const never: never = type;
      return [...out, ...unknownRecord(state, `unknown record type ${never}`, value)];
    }
  }
}

function stepFinish(out: EventDraft[], part: Obj | undefined, state: OpenCodeTranslatorState): void {
  state.ledger.stopMessage(out);
  const cost = opencodeCostDraft(part);
  if (cost) out.push(cost);
  const reason = str(part?.reason);
  // `tool-calls` means another step follows; anything else (`stop`, `length`, …) ends the turn.
  if (reason !== 'tool-calls' && state.turnStarted && !state.turnEnded) {
    state.turnEnded = true;
    out.push({ type: 'turn_end', turn: 0, stopReason: reason, result: state.lastText, isError: false });
    if (state.errors.length === 0) state.outcome = { status: 'completed', output: state.lastText };
  }
}

function announce(sessionId: string, state: OpenCodeTranslatorState): EventDraft {
  state.announced = true;
  state.sessionId = sessionId;
  const previous = state.resumeSessionId;
  if (previous && state.fork && previous !== sessionId)
    return { type: 'session_fork', sessionId, forkedFrom: previous };
  if (previous) return { type: 'session_resume', sessionId, previousSessionId: previous };
  return { type: 'session_start', sessionId, model: state.model, cwd: state.cwd };
}

/** Opens the run's one turn (`turn_start`, turn 0) unless it is open. */
export function startTurn(state: { turnStarted: boolean }): EventDraft[] {
  const out: EventDraft[] = [];
  pushTurnStart(out, state);
  return out;
}

function pushTurnStart(out: EventDraft[], state: { turnStarted: boolean }): void {
  if (state.turnStarted) return;
  state.turnStarted = true;
  out.push({ type: 'turn_start', turn: 0 });
}

/** Opens a message for a part outside a step (the open one keeps its id). */
function openMessage(out: EventDraft[], state: OpenCodeTranslatorState, messageId: string | undefined): void {
  if (state.ledger.messageOpen) return;
  pushTurnStart(out, state);
  state.ledger.startMessage(out, messageId, state.model);
}

/** A tool part, reported once it completed (`state.status` `completed`) or failed (`error`). */
function toolPart(out: EventDraft[], part: Obj, state: OpenCodeTranslatorState): void {
  const toolName = str(part.tool);
  const toolCallId = str(part.callID) ?? str(part.id);
  if (!toolName || !toolCallId) {
    out.push(...malformed('tool_use without a tool name or call id'));
    return;
  }
  if (state.tools[toolCallId]) return;
  state.tools[toolCallId] = true;
  const toolState = isObj(part.state) ? part.state : {};
  const input = toolState.input ?? {};
  const isError = str(toolState.status) === 'error';
  const output = isError ? (toolState.error ?? 'tool failed') : toolState.output;
  const prefix = state.mcpPrefixes.find((p) => toolName.startsWith(p) && toolName.length > p.length);
  if (prefix) {
    const server = prefix.slice(0, -1);
    const name = toolName.slice(prefix.length);
    out.push(
      { type: 'mcp_tool_call_start', toolCallId, server, toolName: name, input },
      { type: 'mcp_tool_result', toolCallId, server, toolName: name, output, isError },
    );
    return;
  }
  const time = isObj(toolState.time) ? toolState.time : {};
  const started = num(time.start);
  const ended = num(time.end);
  const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : undefined;
  state.ledger.startTool(out, toolCallId, toolName);
  state.ledger.readyTool(out, toolCallId, input);
  state.ledger.toolResult(out, toolCallId, output, isError, toolName, durationMs);
}

const MAX_KEPT_ERRORS = 5;

/** `error.error`: `{name, data: {message, statusCode, isRetryable, responseHeaders}}`, or a string (Kilo). */
function errorDraft(error: unknown, state: OpenCodeTranslatorState): EventDraft {
  const info = openCodeErrorInfo(error);
  // A run reports an error or two; keep the first few so the outcome stays bounded on any input.
  if (state.errors.length < MAX_KEPT_ERRORS) {
    state.errors.push(info.message);
    state.outcome = { status: 'failed', message: state.errors.join('\n') };
  }
  return openCodeErrorDraft(info, OPENCODE_PROVIDER_ERRORS);
}

/** A plain-text line where JSON was expected: shown as text, never a failure. */
function textLine(line: string, state: OpenCodeTranslatorState): EventDraft[] {
  if (line.trim() === '') return [];
  return [{ type: 'text_delta', delta: `${line}\n`, messageId: state.ledger.messageId }];
}
