import type { NativeRecord, RunRequest, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';

/**
 * Translates `pi --mode json` (and oh-my-pi's `omp --mode json`, the same format): one JSON object
 * per line, the session header `{"type":"session","id",…}` first, then the agent's events
 * (`agent_start`, `turn_start`, `message_start`/`message_update`/`message_end`,
 * `tool_execution_start`/`_update`/`_end`, `turn_end`, `agent_end`, `auto_retry_*`, `compaction_*`).
 * Recorded from pi 0.73.1 and omp 18.2.3: test/fixtures/streams/pi/, test/fixtures/streams/omp/.
 */
export interface PiTranslatorState extends TranslatorState {
  request?: RunRequest;
  turn: number;
  messageCount: number;
  /** Id of the assistant message being streamed, when one is open. */
  messageId?: string;
  thinkingOpen: boolean;
  /** Tool calls announced (`tool_call_start`) and made ready, by id. */
  toolsStarted: Set<string>;
  toolsReady: Set<string>;
  /** contentIndex → tool call id, for `toolcall_delta` records that carry no id (omp). */
  toolIndex: Map<number, string>;
  toolStartedAt: Map<string, number>;
  /** The last assistant message's failure, if it ended with `stopReason: error|aborted`. */
  lastFailure?: string;
  lastText?: string;
}

export interface PiTranslatorOptions {
  /** Record types the CLI prints that carry nothing for the normalized stream (silently dropped). */
  ignoredTypes?: readonly string[];
  /** Splits an MCP tool's registered name into server and tool, or undefined when it is no MCP tool. */
  mcpToolName?(name: string): { server: string; tool: string } | undefined;
}

/** `mcp__<server>_<tool>` (omp's and Claude-style naming); the server part stops at the first `_`. */
export function defaultMcpToolName(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__([^_]+)_{1,2}(.+)$/.exec(name);
  return match ? { server: match[1] as string, tool: match[2] as string } : undefined;
}

const QUIET_TYPES = [
  'agent_start',
  'tool_execution_update',
  'queue_update',
  'compaction_start',
  'compaction_end',
  'auto_retry_start',
  'auto_retry_end',
];

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;

export function createPiTranslator(options: PiTranslatorOptions = {}): Translator<PiTranslatorState> {
  const ignored = new Set([...QUIET_TYPES, ...(options.ignoredTypes ?? [])]);
  const mcpName = options.mcpToolName ?? defaultMcpToolName;

  const unknown = (state: PiTranslatorState, message: string, data?: unknown): EventDraft[] =>
    state.debug ? [{ type: 'debug', message, data }] : [];

  const startTool = (state: PiTranslatorState, id: string, name: string, out: EventDraft[]) => {
    if (state.toolsStarted.has(id)) return;
    state.toolsStarted.add(id);
    out.push({ type: 'tool_call_start', toolCallId: id, toolName: name });
  };
  const readyTool = (state: PiTranslatorState, id: string, name: string, input: unknown, out: EventDraft[]) => {
    startTool(state, id, name, out);
    if (state.toolsReady.has(id)) return;
    state.toolsReady.add(id);
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName: name, input: input ?? {} });
  };

  function session(value: Obj, state: PiTranslatorState): EventDraft[] {
    const id = str(value.id);
    if (!id) return malformed('session header without an id');
    state.sessionId = id;
    const cwd = str(value.cwd);
    const resumeId = state.request?.resumeSessionId;
    const parent = str(value.parentSession);
    if (parent !== undefined || (resumeId && state.request?.fork)) {
      return [{ type: 'session_fork', sessionId: id, forkedFrom: resumeId ?? sessionIdFromPath(parent ?? '') }];
    }
    if (resumeId && (id === resumeId || id.startsWith(resumeId) || resumeId.endsWith(`${id}.jsonl`))) {
      return [{ type: 'session_resume', sessionId: id, previousSessionId: resumeId === id ? undefined : resumeId }];
    }
    return [{ type: 'session_start', sessionId: id, cwd }];
  }

  function messageStart(message: Obj, state: PiTranslatorState): EventDraft[] {
    if (message.role !== 'assistant') return [];
    const out: EventDraft[] = [];
    if (state.messageId) out.push(...closeMessage(state));
    state.messageCount += 1;
    state.toolIndex.clear();
    state.messageId = `msg_${state.messageCount}`;
    out.push({ type: 'message_start', messageId: state.messageId, model: str(message.model) });
    return out;
  }

  function closeMessage(state: PiTranslatorState, message?: Obj): EventDraft[] {
    const out: EventDraft[] = [];
    const messageId = state.messageId;
    if (state.thinkingOpen) {
      state.thinkingOpen = false;
      out.push({ type: 'thinking_stop', messageId });
    }
    const text = message ? messageText(message) : undefined;
    out.push({ type: 'message_stop', messageId, text: text || undefined });
    state.messageId = undefined;
    return out;
  }

  function messageUpdate(value: Obj, state: PiTranslatorState): EventDraft[] {
    const event = value.assistantMessageEvent;
    if (!isObject(event)) return malformed('message_update without assistantMessageEvent');
    const out: EventDraft[] = [];
    if (!state.messageId) {
      const message = isObject(value.message) ? value.message : { role: 'assistant' };
      out.push(...messageStart({ ...message, role: 'assistant' }, state));
    }
    const messageId = state.messageId;
    const index = typeof event.contentIndex === 'number' ? event.contentIndex : -1;
    switch (event.type) {
      case 'text_delta': {
        const delta = str(event.delta);
        if (delta) out.push({ type: 'text_delta', delta, messageId });
        return out;
      }
      case 'thinking_start':
        if (!state.thinkingOpen) out.push({ type: 'thinking_start', messageId });
        state.thinkingOpen = true;
        return out;
      case 'thinking_delta': {
        if (!state.thinkingOpen) out.push({ type: 'thinking_start', messageId });
        state.thinkingOpen = true;
        const delta = str(event.delta);
        if (delta) out.push({ type: 'thinking_delta', delta, messageId });
        return out;
      }
      case 'thinking_end':
        if (state.thinkingOpen) out.push({ type: 'thinking_stop', messageId, thinking: str(event.content) });
        state.thinkingOpen = false;
        return out;
      case 'toolcall_start': {
        // pi carries the call in `partial.content[contentIndex]`; omp sends no partial, so the
        // call is announced at `toolcall_end` (or `tool_execution_start`) instead.
        const partial = isObject(event.partial) && Array.isArray(event.partial.content) ? event.partial.content : [];
        const call = partial[index];
        if (isObject(call) && str(call.id) && str(call.name)) {
          state.toolIndex.set(index, call.id as string);
          startTool(state, call.id as string, call.name as string, out);
        }
        return out;
      }
      case 'toolcall_delta': {
        const id = state.toolIndex.get(index);
        const delta = str(event.delta);
        if (id && delta && state.toolsStarted.has(id) && !state.toolsReady.has(id)) {
          out.push({ type: 'tool_input_delta', toolCallId: id, delta });
        }
        return out;
      }
      case 'toolcall_end': {
        const call = event.toolCall;
        if (!isObject(call) || !str(call.id) || !str(call.name))
          return [...out, ...malformed('toolcall_end without id')];
        readyTool(state, call.id as string, call.name as string, call.arguments, out);
        return out;
      }
      case 'start':
      case 'text_start':
      case 'text_end':
      case 'done':
      case 'error':
        return out;
      default:
        return [...out, ...unknown(state, `unknown assistantMessageEvent ${JSON.stringify(event.type)}`, event)];
    }
  }

  function messageEnd(message: Obj, state: PiTranslatorState): EventDraft[] {
    if (message.role !== 'assistant') return [];
    const out: EventDraft[] = [];
    if (!state.messageId) out.push(...messageStart(message, state));
    // Tool calls the stream did not announce (a provider that does not stream tool input).
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (isObject(block) && block.type === 'toolCall' && str(block.id) && str(block.name)) {
          readyTool(state, block.id as string, block.name as string, block.arguments, out);
        }
      }
    }
    out.push(...closeMessage(state, message));
    const cost = costDraft(message);
    if (cost) out.push(cost);
    const stopReason = str(message.stopReason);
    if (stopReason === 'error' || stopReason === 'aborted') {
      const text = str(message.errorMessage) ?? (stopReason === 'aborted' ? 'aborted' : 'the model request failed');
      state.lastFailure = text;
      if (stopReason === 'error') out.push(classifyError(text));
    } else {
      state.lastFailure = undefined;
      const text = messageText(message);
      if (text) state.lastText = text;
    }
    return out;
  }

  function toolStart(value: Obj, state: PiTranslatorState): EventDraft[] {
    const id = str(value.toolCallId);
    const name = str(value.toolName);
    if (!id || !name) return malformed('tool_execution_start without toolCallId or toolName');
    const out: EventDraft[] = [];
    readyTool(state, id, name, value.args, out);
    state.toolStartedAt.set(id, Date.now());
    const mcp = mcpName(name);
    if (mcp)
      out.push({
        type: 'mcp_tool_call_start',
        toolCallId: id,
        server: mcp.server,
        toolName: mcp.tool,
        input: value.args ?? {},
      });
    return out;
  }

  function toolEnd(value: Obj, state: PiTranslatorState): EventDraft[] {
    const id = str(value.toolCallId);
    const name = str(value.toolName);
    if (!id || !name) return malformed('tool_execution_end without toolCallId or toolName');
    const out: EventDraft[] = [];
    readyTool(state, id, name, value.args, out);
    const started = state.toolStartedAt.get(id);
    state.toolStartedAt.delete(id);
    const output = toolOutput(value.result);
    const isError = value.isError === true;
    out.push({
      type: 'tool_result',
      toolCallId: id,
      toolName: name,
      output,
      isError,
      durationMs: started === undefined ? undefined : Math.max(0, Date.now() - started),
    });
    const mcp = mcpName(name);
    if (mcp)
      out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
    return out;
  }

  return {
    init: ({ debug, request }) => ({
      debug,
      request,
      turn: 0,
      messageCount: 0,
      thinkingOpen: false,
      toolsStarted: new Set(),
      toolsReady: new Set(),
      toolIndex: new Map(),
      toolStartedAt: new Map(),
    }),
    translate(record: NativeRecord, state: PiTranslatorState): EventDraft[] {
      try {
        if (record.kind === 'text') return plainText(record.line, state);
        const value = record.value;
        if (!isObject(value)) return unknown(state, 'a JSON line that is not an object', value);
        const type = str(value.type);
        switch (type) {
          case 'session':
            return session(value, state);
          case 'turn_start':
            state.turn += 1;
            return [{ type: 'turn_start', turn: state.turn }];
          case 'message_start':
            return isObject(value.message)
              ? messageStart(value.message, state)
              : malformed('message_start without message');
          case 'message_update':
            return messageUpdate(value, state);
          case 'message_end':
            return isObject(value.message)
              ? messageEnd(value.message, state)
              : malformed('message_end without message');
          case 'tool_execution_start':
            return toolStart(value, state);
          case 'tool_execution_end':
            return toolEnd(value, state);
          case 'turn_end': {
            const out: EventDraft[] = state.messageId ? closeMessage(state) : [];
            const message = isObject(value.message) ? value.message : {};
            const stopReason = str(message.stopReason);
            out.push({
              type: 'turn_end',
              turn: state.turn || undefined,
              stopReason,
              isError: stopReason === 'error' || stopReason === 'aborted' ? true : undefined,
            });
            return out;
          }
          case 'agent_end': {
            const out: EventDraft[] = state.messageId ? closeMessage(state) : [];
            state.outcome = state.lastFailure
              ? { status: 'failed', message: state.lastFailure }
              : { status: 'completed', output: state.lastText };
            return out;
          }
          case 'auto_retry_end': {
            if (value.success === false) {
              const message = str(value.finalError) ?? state.lastFailure ?? 'retries exhausted';
              state.outcome = { status: 'failed', message };
            }
            return unknown(state, 'auto_retry_end', value);
          }
          default:
            if (type && ignored.has(type)) return state.debug ? [{ type: 'debug', message: type, data: value }] : [];
            return unknown(state, `unknown record type ${JSON.stringify(value.type)}`, value);
        }
      } catch (error) {
        return translatorFailure('pi', error);
      }
    },
    finish(_exit, state) {
      return state.messageId ? closeMessage(state) : [];
    },
  };
}

/**
 * A line that is not JSON (a warning an extension printed, …): its own text message between the
 * agent's messages, a `log` line inside one (so it never splits the streamed text).
 */
function plainText(line: string, state: PiTranslatorState): EventDraft[] {
  if (!line.trim()) return [];
  if (state.messageId) return [{ type: 'log', source: 'stdout', line }];
  state.messageCount += 1;
  const messageId = `msg_${state.messageCount}`;
  return [
    { type: 'message_start', messageId },
    { type: 'text_delta', delta: `${line}\n`, messageId },
    { type: 'message_stop', messageId, text: line },
  ];
}

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

function messageText(message: Obj): string {
  if (!Array.isArray(message.content)) return '';
  return message.content
    .filter((b): b is Obj => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('');
}

/** A tool result's `content` blocks: the text joined, else the raw result. */
function toolOutput(result: unknown): unknown {
  if (!isObject(result) || !Array.isArray(result.content)) return result ?? null;
  const texts = result.content.filter((b): b is Obj => isObject(b) && b.type === 'text' && typeof b.text === 'string');
  if (texts.length === result.content.length) return texts.map((b) => b.text as string).join('');
  return result.content;
}

/** `usage` of one assistant message (per request, not a running total); `cost.total` is pi's own USD estimate. */
function costDraft(message: Obj): DraftOf<'cost'> | undefined {
  const usage = message.usage;
  if (!isObject(usage)) return undefined;
  const inputTokens = count(usage.input);
  const outputTokens = count(usage.output);
  const cacheReadTokens = count(usage.cacheRead);
  const cacheWriteTokens = count(usage.cacheWrite);
  if (inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens === 0) return undefined;
  const total = isObject(usage.cost) ? usage.cost.total : undefined;
  return {
    type: 'cost',
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheWriteTokens,
    model: str(message.model),
    usd: typeof total === 'number' && Number.isFinite(total) && total > 0 ? total : undefined,
  };
}

/**
 * pi reports a failed model request as the assistant message's `errorMessage`, the provider SDK's
 * text: `401 {"type":"error","error":{"type":"authentication_error",…}}`, `429 {…rate_limit_error…}`.
 */
export function classifyError(message: string): EventDraft {
  const status = /^(\d{3})\b/.exec(message.trim())?.[1];
  const lower = message.toLowerCase();
  if (
    status === '401' ||
    status === '403' ||
    /authentication_error|invalid[ _-]?api[ _-]?key|incorrect api key|unauthori[sz]ed|no api key/.test(lower)
  ) {
    return {
      type: 'auth_error',
      message,
      guidance: 'Set the provider API key (e.g. ANTHROPIC_API_KEY) or log in with `/login`; see ~/.pi/agent/auth.json.',
    };
  }
  if (status === '429' || /rate[ _-]?limit|too many requests|overloaded|quota/.test(lower)) {
    // omp appends the provider's header as ` retry-after-ms=1000`; others say "try again in 20s".
    const header = /retry-after-ms=(\d+)/i.exec(message);
    const seconds = /(?:retry|try again) (?:after|in) (\d+(?:\.\d+)?)\s*(ms|s)?/i.exec(message);
    const retryAfterMs = header
      ? Number(header[1])
      : seconds
        ? Number(seconds[1]) * (seconds[2] === 'ms' ? 1 : 1000)
        : undefined;
    return { type: 'rate_limit_error', message, retryAfterMs };
  }
  if (
    /context[ _-]?(length|window|overflow)|prompt is too long|maximum context|too many tokens|exceeds the context/.test(
      lower,
    )
  ) {
    return { type: 'context_exceeded', message };
  }
  return { type: 'error', code: 'agent_error', message, recoverable: false };
}

/** `<dir>/2026-…Z_<uuid>.jsonl` → `<uuid>`. */
export function sessionIdFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const match = /_([0-9a-f-]{8,})\.jsonl$/i.exec(base);
  return match ? (match[1] as string) : base.replace(/\.jsonl$/, '');
}

export const piTranslator: Translator<PiTranslatorState> = createPiTranslator();
