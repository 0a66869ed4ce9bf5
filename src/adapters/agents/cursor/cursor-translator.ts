import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { textLine } from '../../shared/text-line.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';

/**
 * What `cursor-agent -p --output-format stream-json --stream-partial-output` prints, per Cursor's
 * published reference (cursor.com/docs/cli/reference/output-format) and streams captured by others
 * from the real CLI (see docs/adapters/cursor.md; not recorded here: the CLI is not on npm):
 * - `{type:"system",subtype:"init",apiKeySource,cwd,session_id,model,permissionMode}`
 * - `{type:"user",message:{role,content:[{type:"text",text}]},session_id}` (the prompt echoed)
 * - `{type:"assistant",message:{role,content:[{type:"text",text}]},session_id,timestamp_ms?}`: with
 *   `--stream-partial-output` the pieces carry `timestamp_ms`, then the buffered whole message comes
 *   again without it; without that flag, one line per message
 * - `{type:"thinking",subtype:"delta"|"completed",text?,session_id}`
 * - `{type:"tool_call",subtype:"started"|"completed",call_id,tool_call:{<kind>ToolCall:{args,result?}}}`
 *   with kinds `shell`, `read`, `write`, `edit`, `grep`, `glob`, `ls`, `delete`, `mcp`, …, or
 *   `tool_call.function:{name,arguments}`; a result is `{success:{…}}`, `{rejected:{…}}` or `{failure|error:{…}}`
 * - `{type:"result",subtype:"success"|"error",is_error,duration_ms,result,session_id,request_id?,usage?}`
 * A failure may end the stream without a `result`; the message is then on stderr.
 */
export interface CursorTranslatorState extends TranslatorState {
  resumeSessionId?: string;
  sessionAnnounced: boolean;
  turnOpen: boolean;
  /** The assistant message being streamed: its text so far and whether deltas came. */
  message?: { text: string; partial: boolean; index: number };
  messages: number;
  thinking: boolean;
  toolNames: Record<string, string>;
  mcp: Record<string, { server: string; tool: string }>;
  done: Record<string, true>;
}

type Json = Record<string, unknown>;

export const cursorTranslator: Translator<CursorTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    resumeSessionId: request?.resumeSessionId,
    sessionAnnounced: false,
    turnOpen: false,
    messages: 0,
    thinking: false,
    toolNames: {},
    mcp: {},
    done: {},
  }),

  translate(record: NativeRecord, state: CursorTranslatorState): EventDraft[] {
    try {
      if (record.kind === 'text') return textLine(record.line);
      const value = record.value;
      if (!isObject(value)) return unknown(state, 'a JSON line that is not an object', value);
      if (typeof value.type !== 'string') return malformed('a record without a type');
      return translateEvent(value, state);
    } catch (error) {
      return translatorFailure('cursor', error);
    }
  },

  stderr(line, state) {
    const kind = classify(line);
    if (kind === 'auth') return [{ type: 'auth_error', message: line.trim(), guidance: AUTH_GUIDANCE }];
    if (kind === 'rate') return [{ type: 'rate_limit_error', message: line.trim() }];
    if (kind === 'context') return [{ type: 'context_exceeded', message: line.trim() }];
    void state;
    return [{ type: 'log', source: 'stderr', line }];
  },

  finish(_exit, state) {
    const out = closeAll(state);
    if (state.turnOpen) {
      state.turnOpen = false;
      out.push({ type: 'turn_end', turn: 0 });
    }
    return out;
  },
};

const AUTH_GUIDANCE = 'Run `cursor-agent login`, or set CURSOR_API_KEY (a User API key from the Cursor dashboard).';

function translateEvent(value: Json, state: CursorTranslatorState): EventDraft[] {
  switch (value.type) {
    case 'system':
      return value.subtype === 'init'
        ? init(value, state)
        : unknown(state, `cursor system/${String(value.subtype)}`, value);
    case 'user':
    case 'interaction_query':
      return [];
    case 'assistant':
      return assistant(value, state);
    case 'thinking':
      return thinking(value, state);
    case 'tool_call':
      return toolCall(value, state);
    case 'result':
      return result(value, state);
    default:
      return unknown(state, `cursor record ${JSON.stringify(value.type)}`, value);
  }
}

function init(value: Json, state: CursorTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionAnnounced) {
    state.sessionAnnounced = true;
    state.sessionId = sessionId;
    if (state.resumeSessionId) {
      out.push({ type: 'session_resume', sessionId, previousSessionId: state.resumeSessionId });
    } else {
      out.push({ type: 'session_start', sessionId, model: str(value.model), cwd: str(value.cwd) });
    }
  }
  if (!state.turnOpen) {
    state.turnOpen = true;
    out.push({ type: 'turn_start', turn: 0 });
  }
  return out;
}

function messageText(value: Json): string {
  const message = isObject(value.message) ? value.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  return content
    .filter(isObject)
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function assistant(value: Json, state: CursorTranslatorState): EventDraft[] {
  const text = messageText(value);
  const partial = value.timestamp_ms !== undefined;
  const out: EventDraft[] = closeThinking(state);
  if (!partial && state.message?.partial) {
    // The buffered copy of the message just streamed: it ends the message.
    out.push(...closeMessage(state, text || undefined));
    return out;
  }
  if (!text) return out;
  if (!state.message) {
    state.messages++;
    state.message = { text: '', partial, index: state.messages };
    out.push({ type: 'message_start', messageId: messageId(state) });
  }
  state.message.text += text;
  out.push({ type: 'text_delta', delta: text, messageId: messageId(state) });
  if (!partial) out.push(...closeMessage(state, state.message.text));
  return out;
}

function messageId(state: CursorTranslatorState): string {
  return `msg_${state.message?.index ?? state.messages}`;
}

function closeMessage(state: CursorTranslatorState, text?: string): EventDraft[] {
  if (!state.message) return [];
  const id = messageId(state);
  const whole = text ?? state.message.text;
  state.message = undefined;
  return [{ type: 'message_stop', messageId: id, text: whole || undefined }];
}

function thinking(value: Json, state: CursorTranslatorState): EventDraft[] {
  if (value.subtype === 'completed') return closeThinking(state);
  const text = str(value.text);
  if (value.subtype !== 'delta' || !text) return [];
  const out: EventDraft[] = [];
  if (!state.thinking) {
    state.thinking = true;
    out.push({ type: 'thinking_start' });
  }
  out.push({ type: 'thinking_delta', delta: text });
  return out;
}

function closeThinking(state: CursorTranslatorState): EventDraft[] {
  if (!state.thinking) return [];
  state.thinking = false;
  return [{ type: 'thinking_stop' }];
}

function closeAll(state: CursorTranslatorState): EventDraft[] {
  const out = [...closeThinking(state), ...closeMessage(state)];
  for (const [id, name] of Object.entries(state.toolNames)) {
    if (state.done[id]) continue;
    state.done[id] = true;
    out.push({ type: 'tool_result', toolCallId: id, toolName: name, output: 'no result reported', isError: true });
  }
  return out;
}

interface ToolShape {
  /** The tool's name: the `<kind>` of `<kind>ToolCall`, or `function.name`. */
  name: string;
  args: unknown;
  result?: Json;
  mcp?: { server: string; tool: string; input: unknown };
}

function toolShape(toolCall: Json): ToolShape | undefined {
  for (const [key, body] of Object.entries(toolCall)) {
    if (!key.endsWith('ToolCall') || !isObject(body)) continue;
    const name = key.slice(0, -'ToolCall'.length);
    const args = body.args ?? {};
    const result = isObject(body.result) ? body.result : undefined;
    if (name === 'mcp' && isObject(args)) {
      const tool = str(args.toolName) ?? str(args.name) ?? 'unknown';
      const server = str(args.providerIdentifier) ?? str(args.serverIdentifier) ?? serverOf(str(args.name), tool);
      return {
        name: str(args.name) ?? tool,
        args,
        result,
        mcp: { server, tool, input: args.args ?? args.arguments ?? {} },
      };
    }
    return { name, args, result };
  }
  if (isObject(toolCall.function)) {
    const fn = toolCall.function;
    const raw = fn.arguments;
    let args: unknown = raw ?? {};
    if (typeof raw === 'string') {
      try {
        args = JSON.parse(raw);
      } catch {
        args = { arguments: raw };
      }
    }
    return { name: str(fn.name) ?? 'unknown', args, result: isObject(fn.result) ? fn.result : undefined };
  }
  return undefined;
}

/** `name` is `<server>-<tool>` when no server field is given. */
function serverOf(name: string | undefined, tool: string): string {
  if (name?.endsWith(`-${tool}`)) return name.slice(0, -tool.length - 1);
  return 'unknown';
}

function toolCall(value: Json, state: CursorTranslatorState): EventDraft[] {
  const id = str(value.call_id) ?? (isObject(value.tool_call) ? str(value.tool_call.toolCallId) : undefined);
  if (!id) return malformed('tool_call without a call_id');
  const shape = isObject(value.tool_call) ? toolShape(value.tool_call) : undefined;
  if (!shape) return malformed('tool_call without a <kind>ToolCall or function payload');
  const out: EventDraft[] = [...closeThinking(state), ...closeMessage(state)];
  if (state.toolNames[id] === undefined) {
    state.toolNames[id] = shape.name;
    out.push({ type: 'tool_call_start', toolCallId: id, toolName: shape.name });
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName: shape.name, input: shape.args });
    if (shape.mcp) {
      state.mcp[id] = { server: shape.mcp.server, tool: shape.mcp.tool };
      out.push({
        type: 'mcp_tool_call_start',
        toolCallId: id,
        server: shape.mcp.server,
        toolName: shape.mcp.tool,
        input: shape.mcp.input,
      });
    }
  }
  if (value.subtype !== 'completed' || state.done[id]) return out;
  state.done[id] = true;
  const { output, isError } = toolOutput(shape);
  const mcp = state.mcp[id];
  if (mcp)
    out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  else out.push({ type: 'tool_result', toolCallId: id, toolName: state.toolNames[id], output, isError });
  return out;
}

function toolOutput(shape: ToolShape): { output: unknown; isError: boolean } {
  const result = shape.result;
  if (!result) return { output: '', isError: false };
  if (isObject(result.success)) {
    const success = result.success;
    if (shape.name === 'shell') {
      const exitCode = typeof success.exitCode === 'number' ? success.exitCode : 0;
      const text = [str(success.stdout), str(success.stderr)].filter(Boolean).join('');
      return { output: text || success, isError: exitCode !== 0 };
    }
    if (shape.mcp) return { output: mcpText(success.content) ?? success, isError: success.isError === true };
    if (shape.name === 'read' && typeof success.content === 'string')
      return { output: success.content, isError: false };
    return { output: success, isError: false };
  }
  for (const key of ['rejected', 'failure', 'error']) {
    const failure = result[key];
    if (failure === undefined) continue;
    const message = isObject(failure)
      ? (str(failure.reason) ?? str(failure.error) ?? str(failure.message))
      : str(failure);
    return { output: message ?? `${shape.name} ${key}`, isError: true };
  }
  return { output: result, isError: false };
}

/** MCP content blocks as Cursor prints them (`[{text:{text}}]` or `[{type:"text",text}]`) → their text. */
function mcpText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter(isObject).map((block) => {
    if (isObject(block.text)) return str(block.text.text) ?? '';
    return str(block.text) ?? '';
  });
  return parts.join('');
}

function result(value: Json, state: CursorTranslatorState): EventDraft[] {
  const out = closeAll(state);
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionId) state.sessionId = sessionId;
  const isError = value.is_error === true || value.subtype === 'error';
  const text = str(value.result) ?? '';
  if (isObject(value.usage)) {
    const usage = value.usage;
    const input = optionalCount(usage.inputTokens ?? usage.input_tokens);
    const output = optionalCount(usage.outputTokens ?? usage.output_tokens);
    if (input !== undefined || output !== undefined) {
      out.push({
        type: 'cost',
        inputTokens: input ?? 0,
        outputTokens: output ?? 0,
        cacheReadTokens: optionalCount(usage.cacheReadTokens ?? usage.cache_read_input_tokens),
        cacheWriteTokens: optionalCount(usage.cacheWriteTokens ?? usage.cache_creation_input_tokens),
      });
    }
  }
  if (isError) {
    const message = text || str(value.error) || 'Cursor reported an error';
    const kind = classify(`${message} ${str(value.error_kind) ?? ''}`);
    if (kind === 'auth') out.push({ type: 'auth_error', message, guidance: AUTH_GUIDANCE });
    else if (kind === 'rate') out.push({ type: 'rate_limit_error', message });
    else if (kind === 'context') out.push({ type: 'context_exceeded', message });
    else out.push({ type: 'error', code: 'agent_error', message, recoverable: false });
    state.outcome = { status: 'failed', message };
  } else {
    state.outcome = { status: 'completed', output: text || undefined };
  }
  // `cursor-agent -p` runs one turn: its result record ends the run even if the process lingers.
  state.terminal = true;
  state.turnOpen = false;
  out.push({
    type: 'turn_end',
    turn: 0,
    stopReason: str(value.subtype),
    result: text || undefined,
    isError,
    durationMs: typeof value.duration_ms === 'number' && value.duration_ms >= 0 ? value.duration_ms : undefined,
  });
  return out;
}

function classify(text: string): 'auth' | 'rate' | 'context' | undefined {
  if (/authenticat|not logged in|unauthori[sz]ed|\b401\b|invalid api key|CURSOR_API_KEY/i.test(text)) return 'auth';
  if (/rate.?limit|too many requests|\b429\b|usage limit|quota/i.test(text)) return 'rate';
  if (/context (window|length|limit)|too many tokens|prompt is too long/i.test(text)) return 'context';
  return undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function optionalCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

function unknown(state: CursorTranslatorState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}
