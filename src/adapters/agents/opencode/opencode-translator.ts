import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { count, isObj as isObject, malformed, num, str, unknownRecord } from '../../shared/record-fields.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';

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
  /** The assistant message of the open step and the text it has shown so far. */
  openMessage?: { id?: string; text: string };
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
 * Parts arrive whole: a text part when it ends, so each gives one `text_delta`. Pure, never throws.
 */
export const openCodeTranslator: Translator<OpenCodeTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    announced: false,
    turnStarted: false,
    turnEnded: false,
    steps: 0,
    tools: {},
    errors: [],
    model: request?.model,
    cwd: request?.cwd,
    resumeSessionId: request?.resumeSessionId,
    fork: request?.fork === true && request.resumeSessionId !== undefined,
    mcpPrefixes: [`${OPENCODE_MCP_SERVER}_`],
  }),
  translate(record: NativeRecord, state: OpenCodeTranslatorState): EventDraft[] {
    try {
      if (record.kind === 'text') return textLine(record.line, state);
      const value = record.value;
      if (!isObject(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
      return translateEvent(value, state);
    } catch (error) {
      return translatorFailure('opencode', error);
    }
  },
  stderr(line: string): EventDraft[] {
    return line.trim() === '' ? [] : [logDraft('stderr', line)];
  },
  finish(exit, state: OpenCodeTranslatorState): EventDraft[] {
    const out = closeMessage(state);
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

function translateEvent(value: Record<string, unknown>, state: OpenCodeTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const sessionId = str(value.sessionID);
  if (sessionId && !state.announced) out.push(...announce(sessionId, state));
  const part = isObject(value.part) ? value.part : undefined;
  switch (value.type) {
    case 'step_start':
      out.push(...closeMessage(state), ...startTurn(state));
      state.steps++;
      state.openMessage = { id: str(part?.messageID), text: '' };
      out.push({ type: 'message_start', messageId: state.openMessage.id, model: state.model });
      return out;
    case 'text': {
      const text = str(part?.text) ?? '';
      if (text === '') return out;
      out.push(...openMessage(state, str(part?.messageID)));
      const message = state.openMessage as { id?: string; text: string };
      message.text += text;
      state.lastText = text;
      out.push({ type: 'text_delta', delta: text, messageId: message.id });
      return out;
    }
    case 'reasoning': {
      const text = str(part?.text) ?? '';
      if (text === '') return out;
      out.push(...openMessage(state, str(part?.messageID)));
      const messageId = state.openMessage?.id;
      out.push(
        { type: 'thinking_start', messageId },
        { type: 'thinking_delta', delta: text, messageId },
        { type: 'thinking_stop', messageId, thinking: text },
      );
      return out;
    }
    case 'tool_use':
      if (!part) return [...out, ...malformed('tool_use without a part')];
      out.push(...startTurn(state), ...toolPart(part, state));
      return out;
    case 'step_finish': {
      out.push(...closeMessage(state));
      const cost = opencodeCostDraft(part);
      if (cost) out.push(cost);
      const reason = str(part?.reason);
      // `tool-calls` means another step follows; anything else (`stop`, `length`, …) ends the turn.
      if (reason !== 'tool-calls' && state.turnStarted && !state.turnEnded) {
        state.turnEnded = true;
        out.push({ type: 'turn_end', turn: 0, stopReason: reason, result: state.lastText, isError: false });
        if (state.errors.length === 0) state.outcome = { status: 'completed', output: state.lastText };
      }
      return out;
    }
    case 'error':
      out.push(...errorDrafts(value.error, state));
      return out;
    default:
      return [...out, ...unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value)];
  }
}

function announce(sessionId: string, state: OpenCodeTranslatorState): EventDraft[] {
  state.announced = true;
  state.sessionId = sessionId;
  const previous = state.resumeSessionId;
  if (previous && state.fork && previous !== sessionId)
    return [{ type: 'session_fork', sessionId, forkedFrom: previous }];
  if (previous) return [{ type: 'session_resume', sessionId, previousSessionId: previous }];
  return [{ type: 'session_start', sessionId, model: state.model, cwd: state.cwd }];
}

/** Opens the run's one turn (`turn_start`, turn 0) unless it is open. */
export function startTurn(state: { turnStarted: boolean }): EventDraft[] {
  if (state.turnStarted) return [];
  state.turnStarted = true;
  return [{ type: 'turn_start', turn: 0 }];
}

function openMessage(state: OpenCodeTranslatorState, messageId: string | undefined): EventDraft[] {
  if (state.openMessage) return [];
  const out = startTurn(state);
  state.openMessage = { id: messageId, text: '' };
  out.push({ type: 'message_start', messageId, model: state.model });
  return out;
}

function closeMessage(state: OpenCodeTranslatorState): EventDraft[] {
  const message = state.openMessage;
  if (!message) return [];
  state.openMessage = undefined;
  return [{ type: 'message_stop', messageId: message.id, text: message.text === '' ? undefined : message.text }];
}

/** A tool part, reported once it completed (`state.status` `completed`) or failed (`error`). */
function toolPart(part: Record<string, unknown>, state: OpenCodeTranslatorState): EventDraft[] {
  const toolName = str(part.tool);
  const toolCallId = str(part.callID) ?? str(part.id);
  if (!toolName || !toolCallId) return malformed('tool_use without a tool name or call id');
  if (state.tools[toolCallId]) return [];
  state.tools[toolCallId] = true;
  const toolState = isObject(part.state) ? part.state : {};
  const status = str(toolState.status);
  const input = toolState.input ?? {};
  const isError = status === 'error';
  const output = isError ? (toolState.error ?? 'tool failed') : toolState.output;
  const time = isObject(toolState.time) ? toolState.time : {};
  const started = num(time.start);
  const ended = num(time.end);
  const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : undefined;
  const prefix = state.mcpPrefixes.find((p) => toolName.startsWith(p) && toolName.length > p.length);
  if (prefix) {
    const server = prefix.slice(0, -1);
    const name = toolName.slice(prefix.length);
    return [
      { type: 'mcp_tool_call_start', toolCallId, server, toolName: name, input },
      { type: 'mcp_tool_result', toolCallId, server, toolName: name, output, isError },
    ];
  }
  return [
    { type: 'tool_call_start', toolCallId, toolName },
    { type: 'tool_call_ready', toolCallId, toolName, input },
    { type: 'tool_result', toolCallId, toolName, output, isError, durationMs },
  ];
}

/** `step_finish.part`: `tokens: {input, output, reasoning, cache: {read, write}}` and `cost` (USD) of that step. */
export function opencodeCostDraft(part: Record<string, unknown> | undefined): DraftOf<'cost'> | undefined {
  if (!part || !isObject(part.tokens)) return undefined;
  const tokens = part.tokens;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const usd = num(part.cost);
  return {
    type: 'cost',
    inputTokens: count(tokens.input),
    outputTokens: count(tokens.output),
    cacheReadTokens: count(cache.read),
    cacheWriteTokens: count(cache.write),
    thinkingTokens: count(tokens.reasoning),
    // 0 is what OpenCode reports for a model without a price: leave pricing to the core then.
    usd: usd !== undefined && usd > 0 ? usd : undefined,
  };
}

const MAX_KEPT_ERRORS = 5;

/** `error.error`: `{name, data: {message, statusCode, isRetryable, responseHeaders}}`, or a string (Kilo). */
function errorDrafts(error: unknown, state: OpenCodeTranslatorState): EventDraft[] {
  const info = errorInfo(error);
  // A run reports an error or two; keep the first few so the outcome stays bounded on any input.
  if (state.errors.length < MAX_KEPT_ERRORS) {
    state.errors.push(info.message);
    state.outcome = { status: 'failed', message: state.errors.join('\n') };
  }
  const { message, name, status, headers } = info;
  if (status === 401 || status === 403 || name === 'ProviderAuthError' || /api key|unauthori[sz]ed/i.test(message))
    return [
      {
        type: 'auth_error',
        message,
        guidance:
          "Set the provider's API key (e.g. ANTHROPIC_API_KEY) or log in with `opencode auth login` (`kilo auth login`).",
      },
    ];
  if (status === 429 || /rate limit|too many requests/i.test(message))
    return [{ type: 'rate_limit_error', message, retryAfterMs: retryAfterMs(headers, message) }];
  if (
    name === 'ContextOverflowError' ||
    /context (length|window)|maximum context|prompt is too long|too many tokens/i.test(message)
  )
    return [{ type: 'context_exceeded', message }];
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}

interface ErrorInfo {
  message: string;
  name?: string;
  status?: number;
  headers: Record<string, unknown>;
}

function errorInfo(error: unknown): ErrorInfo {
  if (typeof error === 'string') return { message: error, headers: {} };
  if (!isObject(error)) return { message: 'unknown error', headers: {} };
  const data = isObject(error.data) ? error.data : {};
  const name = str(error.name);
  const message = str(data.message) ?? str(error.message) ?? name ?? 'unknown error';
  return {
    message,
    name,
    status: num(data.statusCode),
    headers: isObject(data.responseHeaders) ? data.responseHeaders : {},
  };
}

function retryAfterMs(headers: Record<string, unknown>, message: string): number | undefined {
  const ms = Number(str(headers['retry-after-ms']));
  if (Number.isFinite(ms) && ms >= 0 && str(headers['retry-after-ms']) !== undefined) return Math.round(ms);
  const seconds = str(headers['retry-after']);
  if (seconds !== undefined) {
    const value = Number(seconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value * 1000);
    const date = Date.parse(seconds);
    if (Number.isFinite(date)) return undefined;
  }
  const match = /try again in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(message);
  if (match) return Math.round(Number(match[1]) * (match[2]?.toLowerCase() === 'ms' ? 1 : 1000));
  return undefined;
}

/** A plain-text line where JSON was expected: shown as text, never a failure. */
function textLine(line: string, state: OpenCodeTranslatorState): EventDraft[] {
  if (line.trim() === '') return [];
  return [{ type: 'text_delta', delta: `${line}\n`, messageId: state.openMessage?.id }];
}
