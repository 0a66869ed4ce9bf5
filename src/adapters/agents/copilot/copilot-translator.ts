import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { textLine } from '../../shared/text-line.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';

/**
 * What `copilot -p … --output-format json` prints (recorded from @github/copilot 1.0.102): one
 * session event per line, `{type, data, id, timestamp, parentId, ephemeral?}`, the same event
 * union the CLI writes to `~/.copilot/session-state/<id>/events.jsonl` (schema in the package's
 * `schemas/session-events.schema.json`), then one `{type: "result", sessionId, exitCode, usage}`.
 * Token counts are not on stdout (only in `--usage-output-file`): see copilot-controller.ts.
 */
export interface CopilotTranslatorState extends TranslatorState {
  /** The session this run continues (request.resumeSessionId), to tell a resume from a new session. */
  resumeSessionId?: string;
  sessionAnnounced: boolean;
  /** The assistant message being streamed, if any. */
  openMessage?: string;
  /** Reasoning blocks started and not yet stopped. */
  openThinking: string[];
  /** Tool calls started (tool_call_start sent), by id → native tool name. */
  toolNames: Record<string, string>;
  /** Tool calls whose complete input was sent (tool_call_ready). */
  ready: Record<string, true>;
  /**
   * Tool calls started and not yet ready, by id → native tool name: what a turn's end must still
   * close. Kept apart from `toolNames` (which only grows) so that closing costs the calls still
   * open, not every call of the run.
   */
  unready: Record<string, string>;
  /** MCP tool calls, by id → server and tool on that server. */
  mcp: Record<string, { server: string; tool: string }>;
  /** The last `session.error` message, for the run's outcome. */
  lastError?: string;
  /** An `assistant.usage` record was seen (token counts on stdout). */
  sawUsage: boolean;
  /** The text of the last assistant message: the run's output. */
  lastText?: string;
}

type Json = Record<string, unknown>;

export const copilotTranslator: Translator<CopilotTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    resumeSessionId: request?.resumeSessionId,
    sessionAnnounced: false,
    openThinking: [],
    toolNames: {},
    ready: {},
    unready: {},
    mcp: {},
    sawUsage: false,
  }),

  translate(record: NativeRecord, state: CopilotTranslatorState): EventDraft[] {
    try {
      // Plain text where JSON was expected (a warning, a crash message): kept as stdout output, not a failure.
      if (record.kind === 'text') return textLine(record.line);
      const value = record.value;
      if (!isObject(value)) return unknown(state, 'a JSON line that is not an object', value);
      if (typeof value.type !== 'string') return malformed('a record without a type');
      const data = isObject(value.data) ? value.data : {};
      return translateEvent(value.type, data, value, state);
    } catch (error) {
      return translatorFailure('copilot', error);
    }
  },

  finish(_exit, state) {
    return closeOpen(state);
  },
};

function translateEvent(type: string, data: Json, value: Json, state: CopilotTranslatorState): EventDraft[] {
  switch (type) {
    case 'session.start':
      return announce(state, str(data.sessionId), {
        model: str(data.selectedModel),
        cwd: isObject(data.context) ? str(data.context.cwd) : undefined,
      });
    case 'session.resume':
      return state.resumeSessionId ? announce(state, state.resumeSessionId, {}) : [];
    case 'session.skills_loaded': {
      const skills = Array.isArray(data.skills) ? data.skills.filter(isObject) : [];
      return skills
        .filter((s) => typeof s.name === 'string' && s.enabled !== false)
        .map((s) => ({ type: 'skill_loaded', name: String(s.name), source: str(s.source) }));
    }
    case 'skill.invoked':
      return typeof data.name === 'string' ? [{ type: 'skill_invoked', name: data.name, input: data.arguments }] : [];
    case 'assistant.turn_start':
      return [{ type: 'turn_start', turn: turnNumber(data.turnId) }];
    case 'assistant.turn_end':
      return [...closeOpen(state), { type: 'turn_end', turn: turnNumber(data.turnId) }];
    case 'assistant.message_start':
      return openMessage(state, str(data.messageId));
    case 'assistant.message_delta': {
      const delta = str(data.deltaContent);
      if (!delta) return [];
      const messageId = str(data.messageId);
      return [...openMessage(state, messageId), { type: 'text_delta', delta, messageId }];
    }
    case 'assistant.reasoning_delta': {
      const delta = str(data.deltaContent);
      const id = str(data.reasoningId) ?? 'reasoning';
      if (!delta) return [];
      return [...openThinking(state, id), { type: 'thinking_delta', delta, messageId: id }];
    }
    case 'assistant.reasoning': {
      const id = str(data.reasoningId) ?? 'reasoning';
      const content = str(data.content) ?? '';
      const out: EventDraft[] = [];
      if (!state.openThinking.includes(id)) {
        out.push(...openThinking(state, id));
        if (content) out.push({ type: 'thinking_delta', delta: content, messageId: id });
      }
      state.openThinking = state.openThinking.filter((t) => t !== id);
      out.push({ type: 'thinking_stop', messageId: id, thinking: content || undefined });
      return out;
    }
    case 'assistant.tool_call_delta': {
      const id = str(data.toolCallId);
      if (!id) return [];
      const out = startTool(state, id, str(data.toolName) ?? 'unknown');
      const delta = str(data.inputDelta);
      if (delta && !state.ready[id]) out.push({ type: 'tool_input_delta', toolCallId: id, delta });
      return out;
    }
    case 'assistant.message':
      return assistantMessage(data, state);
    case 'assistant.usage':
      state.sawUsage = true;
      return [usageCost(data)];
    case 'tool.execution_start':
      return toolStart(data, state);
    case 'tool.execution_complete':
      return toolComplete(data, state);
    case 'session.error':
      return sessionError(data, state);
    case 'abort':
      state.lastError = `aborted${typeof data.reason === 'string' ? `: ${data.reason}` : ''}`;
      return [];
    case 'result':
      return result(value, state);
    default:
      return unknown(state, `copilot event ${type}`, value);
  }
}

function announce(
  state: CopilotTranslatorState,
  sessionId: string | undefined,
  extra: { model?: string; cwd?: string },
) {
  if (!sessionId || state.sessionAnnounced) return [];
  state.sessionAnnounced = true;
  state.sessionId = sessionId;
  if (state.resumeSessionId) {
    return [{ type: 'session_resume', sessionId, previousSessionId: state.resumeSessionId } as const];
  }
  return [{ type: 'session_start', sessionId, ...extra } as const];
}

function openMessage(state: CopilotTranslatorState, messageId: string | undefined): EventDraft[] {
  const id = messageId ?? 'message';
  if (state.openMessage === id) return [];
  const out = closeMessage(state);
  state.openMessage = id;
  out.push({ type: 'message_start', messageId: messageId });
  return out;
}

function closeMessage(state: CopilotTranslatorState, text?: string): EventDraft[] {
  if (state.openMessage === undefined) return [];
  const messageId = state.openMessage === 'message' ? undefined : state.openMessage;
  state.openMessage = undefined;
  return [{ type: 'message_stop', messageId, text }];
}

function openThinking(state: CopilotTranslatorState, id: string): EventDraft[] {
  if (state.openThinking.includes(id)) return [];
  state.openThinking.push(id);
  return [{ type: 'thinking_start', messageId: id }];
}

/** Closes whatever is still open: the turn, or the whole run, ended. */
function closeOpen(state: CopilotTranslatorState): EventDraft[] {
  const out: EventDraft[] = state.openThinking.map((id) => ({ type: 'thinking_stop', messageId: id }) as const);
  state.openThinking = [];
  out.push(...closeMessage(state));
  for (const [id, name] of Object.entries(state.unready)) {
    state.ready[id] = true;
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName: name, input: {} });
  }
  state.unready = {};
  return out;
}

function startTool(state: CopilotTranslatorState, id: string, name: string): EventDraft[] {
  if (state.toolNames[id] !== undefined) return [];
  state.toolNames[id] = name;
  state.unready[id] = name;
  return [{ type: 'tool_call_start', toolCallId: id, toolName: name }];
}

function readyTool(state: CopilotTranslatorState, id: string, name: string, input: unknown): EventDraft[] {
  const out = startTool(state, id, name);
  if (state.ready[id]) return out;
  state.ready[id] = true;
  delete state.unready[id];
  out.push({ type: 'tool_call_ready', toolCallId: id, toolName: state.toolNames[id] ?? name, input: input ?? {} });
  return out;
}

function assistantMessage(data: Json, state: CopilotTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const messageId = str(data.messageId);
  const content = str(data.content) ?? '';
  if (content) state.lastText = content;
  if (state.openMessage !== undefined) {
    out.push(...closeMessage(state, content || undefined));
  } else if (content) {
    // Not streamed (`--stream off`): the whole message at once.
    out.push({ type: 'message_start', messageId, model: str(data.model) });
    out.push({ type: 'text_delta', delta: content, messageId });
    out.push({ type: 'message_stop', messageId, text: content });
  }
  const requests = Array.isArray(data.toolRequests) ? data.toolRequests.filter(isObject) : [];
  for (const request of requests) {
    const id = str(request.toolCallId);
    if (!id) continue;
    out.push(...readyTool(state, id, str(request.name) ?? 'unknown', request.arguments));
  }
  return out;
}

function toolStart(data: Json, state: CopilotTranslatorState): EventDraft[] {
  const id = str(data.toolCallId);
  if (!id) return malformed('tool.execution_start without a toolCallId');
  const name = str(data.toolName) ?? 'unknown';
  const out = readyTool(state, id, name, data.arguments);
  const server = str(data.mcpServerName) ?? str(data.mcpConfigServerName);
  if (server) {
    const tool = str(data.mcpToolName) ?? name;
    state.mcp[id] = { server, tool };
    out.push({ type: 'mcp_tool_call_start', toolCallId: id, server, toolName: tool, input: data.arguments ?? {} });
  }
  return out;
}

function toolComplete(data: Json, state: CopilotTranslatorState): EventDraft[] {
  const id = str(data.toolCallId);
  if (!id) return malformed('tool.execution_complete without a toolCallId');
  const out = readyTool(state, id, 'unknown', {});
  const isError = data.success !== true;
  const result = isObject(data.result) ? data.result : undefined;
  const error = isObject(data.error) ? data.error : undefined;
  const output = isError
    ? (str(error?.message) ?? 'the tool failed')
    : (result?.structuredContent ?? str(result?.content) ?? str(result?.detailedContent) ?? '');
  const mcp = state.mcp[id];
  if (mcp) {
    out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  } else {
    out.push({ type: 'tool_result', toolCallId: id, toolName: state.toolNames[id], output, isError });
  }
  return out;
}

function sessionError(data: Json, state: CopilotTranslatorState): EventDraft[] {
  const message = withoutRetryTime(str(data.message) ?? 'Copilot reported an error');
  const kind = (str(data.errorType) ?? '').toLowerCase();
  const status = typeof data.statusCode === 'number' ? data.statusCode : undefined;
  state.lastError = message;
  if (kind === 'authentication' || kind === 'authorization' || status === 401 || status === 403) {
    return [
      {
        type: 'auth_error',
        message,
        guidance:
          'Set COPILOT_GITHUB_TOKEN (or GH_TOKEN / GITHUB_TOKEN), run `copilot login`, or for a custom provider check COPILOT_PROVIDER_API_KEY.',
      },
    ];
  }
  if (kind === 'rate_limit' || kind === 'quota' || status === 429) {
    const retryAfterMs = retryAfter(data);
    return [{ type: 'rate_limit_error', message, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }];
  }
  if (kind === 'context_limit' || /context (window|length|limit)|too many tokens/i.test(message)) {
    return [{ type: 'context_exceeded', message }];
  }
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}

function retryAfter(data: Json): number | undefined {
  for (const key of ['retryAfterMs', 'retryAfter']) {
    const v = data[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return key === 'retryAfter' ? v * 1000 : v;
  }
  // The provider's own words, passed on by Copilot: "… Please try again in 1s."
  const match = /try again in (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)\b/i.exec(str(data.message) ?? '');
  if (!match) return undefined;
  const n = Number(match[1]);
  return Math.round(/^m/i.test(match[2] ?? '') ? n : n * 1000);
}

/**
 * Copilot's give-up message counts the time it spent retrying ("retried 5 times (total retry wait
 * time: 5.62 seconds)"), which differs on every run and tells nothing to act on: it is dropped from
 * the normalized message (debug mode keeps the raw record).
 */
function withoutRetryTime(message: string): string {
  return message.replace(/\s*\(total retry wait time: [\d.]+ seconds?\)\s*/i, '. ');
}

function result(value: Json, state: CopilotTranslatorState): EventDraft[] {
  const out = closeOpen(state);
  out.push(...announce(state, str(value.sessionId), {}));
  const exitCode = typeof value.exitCode === 'number' ? value.exitCode : 0;
  // `result.usage` holds timings and premium requests, no tokens: the output is the last answer.
  state.outcome =
    exitCode === 0
      ? { status: 'completed', ...(state.lastText === undefined ? {} : { output: state.lastText }) }
      : { status: 'failed', message: state.lastError ?? `copilot reported exit code ${exitCode}` };
  // The result record is copilot's last word on a `-p` run: it ends the run even if the process lingers.
  state.terminal = true;
  return out;
}

/** One model call's usage (`assistant.usage`): an increment, not a running total. */
export function usageCost(data: Json): DraftOf<'cost'> {
  return {
    type: 'cost',
    inputTokens: count(data.inputTokens),
    outputTokens: count(data.outputTokens),
    cacheReadTokens: optionalCount(data.cacheReadTokens),
    cacheWriteTokens: optionalCount(data.cacheWriteTokens),
    thinkingTokens: optionalCount(data.reasoningTokens),
    model: str(data.model),
  };
}

function turnNumber(turnId: unknown): number | undefined {
  const n = typeof turnId === 'string' ? Number(turnId) : typeof turnId === 'number' ? turnId : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

function optionalCount(value: unknown): number | undefined {
  return value === undefined ? undefined : count(value);
}

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

function unknown(state: CopilotTranslatorState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}
