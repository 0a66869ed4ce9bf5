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

interface ToolCall {
  name: string;
  /** Input JSON streamed so far (`input_json_delta`). */
  json: string;
  ready: boolean;
}

interface Block {
  kind: 'text' | 'thinking' | 'tool_use' | 'other';
  toolCallId?: string;
  thinking?: string;
}

interface OpenMessage {
  id: string;
  /** Came from `stream_event` records (`--include-partial-messages`): closed by `message_stop`. */
  streamed: boolean;
  text: string;
  model?: string;
  usage?: Obj;
  blocks: Map<number, Block>;
}

export interface ClaudeTranslatorState extends TranslatorState {
  request?: RunRequest;
  turn: number;
  turnOpen: boolean;
  message?: OpenMessage;
  /** Ids of messages already streamed, whose full `assistant` records repeat what was streamed. */
  streamedIds: Set<string>;
  tools: Map<string, ToolCall>;
  /** A typed error (auth, rate limit, context) was reported for the current turn. */
  errorReported: boolean;
  sessionAnnounced: boolean;
  /** What this process spent so far, summed over its turns. */
  runCost: Tally;
}

/**
 * Translates Claude Code's `--print --output-format stream-json --verbose` records, with or
 * without `--include-partial-messages` (recorded from claude 2.1.330, docs/adapters/claude.md):
 *
 * - `system` `init` → `session_start` (+ `session_resume` / `session_fork` when the request resumed),
 *   then `turn_start`; `api_retry` on 429 → `rate_limit_error`; other `system` subtypes → debug.
 * - `stream_event` (raw Anthropic SSE events) → `message_start`, `text_delta`, `thinking_*`,
 *   `tool_call_start`, `tool_input_delta`, `message_stop`, and a per-message `cost` increment.
 * - `assistant` → the same events from whole blocks when the message was not streamed; for a streamed
 *   one only `tool_call_ready` (its input parsed). An API error message → `auth_error`,
 *   `rate_limit_error`, `context_exceeded` or `error`.
 * - `user` with `tool_result` blocks → `tool_result` (and `mcp_tool_result` for `mcp__<server>__<tool>`).
 * - `result` → `cost` (the process's running total, `cumulative`), `turn_end`, and `state.outcome`.
 */
export const claudeTranslator: Translator<ClaudeTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    request,
    turn: 0,
    turnOpen: false,
    streamedIds: new Set(),
    tools: new Map(),
    errorReported: false,
    sessionAnnounced: false,
    runCost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, thinking: 0, usd: 0, models: new Set() },
  }),

  translate(record: NativeRecord, state: ClaudeTranslatorState): EventDraft[] {
    try {
      // Plain text where JSON was expected (a warning printed to stdout): kept as a `log`, not a failure,
      // and not model text (it would change the answer).
      if (record.kind === 'text') return textLine(record.line);
      const value = record.value;
      if (!isObj(value)) return unknown(state, 'a JSON line that is not an object', value);
      switch (value.type) {
        case 'system':
          return system(value, state);
        case 'stream_event':
          return streamEvent(value, state);
        case 'assistant':
          return assistant(value, state);
        case 'user':
          return user(value, state);
        case 'result':
          return result(value, state);
        default:
          return unknown(state, `unknown record type ${JSON.stringify(value.type)}`, value);
      }
    } catch (error) {
      return translatorFailure('claude', error);
    }
  },

  finish(_exit: ExitInfo, state: ClaudeTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    closeMessage(state, out);
    for (const [id, call] of state.tools) readyTool(state, id, call.name, parseJson(call.json) ?? {}, out);
    return out;
  },
};

// ---------------------------------------------------------------------------------------------
// system

function system(value: Obj, state: ClaudeTranslatorState): EventDraft[] {
  switch (value.subtype) {
    case 'init': {
      const out: EventDraft[] = [];
      const sessionId = str(value.session_id);
      if (sessionId && !state.sessionAnnounced) {
        state.sessionAnnounced = true;
        state.sessionId = sessionId;
        out.push({
          type: 'session_start',
          sessionId,
          model: str(value.model),
          cwd: str(value.cwd),
          tools: Array.isArray(value.tools) ? value.tools.filter((t): t is string => typeof t === 'string') : undefined,
        });
        const previous = state.request?.resumeSessionId;
        if (previous) {
          out.push(
            state.request?.fork || previous !== sessionId
              ? { type: 'session_fork', sessionId, forkedFrom: previous }
              : { type: 'session_resume', sessionId, previousSessionId: previous },
          );
        }
      }
      startTurn(state, out);
      return out;
    }
    case 'api_retry': {
      const status = num(value.error_status);
      if (status === 429 || value.error === 'rate_limit') {
        const attempt = num(value.attempt);
        const max = num(value.max_retries);
        const delay = num(value.retry_delay_ms);
        return [
          {
            type: 'rate_limit_error',
            message: `rate limited by the model API${attempt !== undefined ? ` (retry ${attempt}${max !== undefined ? ` of ${max}` : ''})` : ''}`,
            retryAfterMs: delay !== undefined && delay >= 0 ? delay : undefined,
          },
        ];
      }
      return unknown(state, `claude retries the API request (${String(value.error ?? status ?? 'error')})`, value);
    }
    default:
      return unknown(state, `claude system record ${JSON.stringify(value.subtype)}`, value);
  }
}

// ---------------------------------------------------------------------------------------------
// stream_event (--include-partial-messages)

function streamEvent(value: Obj, state: ClaudeTranslatorState): EventDraft[] {
  const event = value.event;
  if (!isObj(event)) return malformed('stream_event without an event');
  const out: EventDraft[] = [];
  startTurn(state, out);
  switch (event.type) {
    case 'message_start': {
      const message = isObj(event.message) ? event.message : {};
      const id = str(message.id) ?? str(value.api_message_id) ?? `message-${state.turn}-${Date.now()}`;
      closeMessage(state, out);
      state.streamedIds.add(id);
      state.message = {
        id,
        streamed: true,
        text: '',
        model: str(message.model),
        usage: isObj(message.usage) ? message.usage : undefined,
        blocks: new Map(),
      };
      out.push({ type: 'message_start', messageId: id, model: str(message.model) });
      return out;
    }
    case 'content_block_start': {
      const message = ensureStreamedMessage(state, value, out);
      const index = num(event.index) ?? message.blocks.size;
      const block = isObj(event.content_block) ? event.content_block : {};
      if (block.type === 'text') {
        message.blocks.set(index, { kind: 'text' });
        const text = str(block.text);
        if (text) {
          message.text += text;
          out.push({ type: 'text_delta', delta: text, messageId: message.id });
        }
      } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
        message.blocks.set(index, { kind: 'thinking', thinking: str(block.thinking) ?? '' });
        out.push({ type: 'thinking_start', messageId: message.id });
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use') {
        const id = str(block.id);
        const name = str(block.name);
        if (!id || !name) return [...out, ...malformed('tool_use block without an id or a name')];
        message.blocks.set(index, { kind: 'tool_use', toolCallId: id });
        startTool(state, id, name, out);
      } else {
        message.blocks.set(index, { kind: 'other' });
      }
      return out;
    }
    case 'content_block_delta': {
      const message = ensureStreamedMessage(state, value, out);
      const index = num(event.index) ?? 0;
      const delta = isObj(event.delta) ? event.delta : {};
      const block = message.blocks.get(index);
      if (delta.type === 'text_delta') {
        const text = str(delta.text) ?? '';
        if (!block) message.blocks.set(index, { kind: 'text' });
        message.text += text;
        if (text) out.push({ type: 'text_delta', delta: text, messageId: message.id });
      } else if (delta.type === 'thinking_delta') {
        const thinking = str(delta.thinking) ?? '';
        if (!block) {
          message.blocks.set(index, { kind: 'thinking', thinking });
          out.push({ type: 'thinking_start', messageId: message.id });
        } else block.thinking = (block.thinking ?? '') + thinking;
        if (thinking) out.push({ type: 'thinking_delta', delta: thinking, messageId: message.id });
      } else if (delta.type === 'input_json_delta' && block?.toolCallId) {
        const partial = str(delta.partial_json) ?? '';
        const call = state.tools.get(block.toolCallId);
        if (call && !call.ready) {
          call.json += partial;
          if (partial) out.push({ type: 'tool_input_delta', toolCallId: block.toolCallId, delta: partial });
        }
      }
      return out;
    }
    case 'content_block_stop': {
      const message = state.message;
      if (!message) return out;
      const index = num(event.index) ?? 0;
      const block = message.blocks.get(index);
      if (block?.kind === 'thinking') {
        out.push({ type: 'thinking_stop', messageId: message.id, thinking: block.thinking || undefined });
      } else if (block?.kind === 'tool_use' && block.toolCallId) {
        const call = state.tools.get(block.toolCallId);
        if (call) readyTool(state, block.toolCallId, call.name, parseJson(call.json) ?? {}, out);
      }
      message.blocks.delete(index);
      return out;
    }
    case 'message_delta': {
      const message = state.message;
      const usage = isObj(event.usage) ? event.usage : undefined;
      if (message && usage) {
        const cost = messageCost(message, usage);
        if (cost) out.push(cost);
      }
      return out;
    }
    case 'message_stop':
      closeMessage(state, out);
      return out;
    case 'ping':
      return out;
    case 'error': {
      const error = isObj(event.error) ? event.error : {};
      return [...out, ...apiError(state, str(error.message) ?? 'the model API failed', undefined, str(error.type))];
    }
    default:
      return [...out, ...unknown(state, `unknown stream event ${JSON.stringify(event.type)}`, value)];
  }
}

function ensureStreamedMessage(state: ClaudeTranslatorState, value: Obj, out: EventDraft[]): OpenMessage {
  if (state.message?.streamed) return state.message;
  const id = str(value.api_message_id) ?? `message-${state.turn}-${Date.now()}`;
  closeMessage(state, out);
  state.streamedIds.add(id);
  state.message = { id, streamed: true, text: '', blocks: new Map() };
  out.push({ type: 'message_start', messageId: id });
  return state.message;
}

/** A per-message increment: input and cache tokens from `message_start`, output from `message_delta`. */
function messageCost(message: OpenMessage, delta: Obj): DraftOf<'cost'> | undefined {
  const start = message.usage ?? {};
  const pick = (key: string) => num(delta[key]) ?? num(start[key]) ?? 0;
  const cost: DraftOf<'cost'> = {
    type: 'cost',
    inputTokens: whole(pick('input_tokens')),
    outputTokens: whole(pick('output_tokens')),
    cacheReadTokens: whole(pick('cache_read_input_tokens')),
    cacheWriteTokens: whole(pick('cache_creation_input_tokens')),
    model: message.model,
  };
  return cost.inputTokens + cost.outputTokens + (cost.cacheReadTokens ?? 0) + (cost.cacheWriteTokens ?? 0) > 0
    ? cost
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// assistant / user

function assistant(value: Obj, state: ClaudeTranslatorState): EventDraft[] {
  const message = value.message;
  if (!isObj(message)) return malformed('assistant record without a message');
  const out: EventDraft[] = [];
  startTurn(state, out);
  const content = Array.isArray(message.content) ? message.content.filter(isObj) : [];
  if (value.is_api_error_message === true || (typeof value.error === 'string' && message.model === '<synthetic>')) {
    closeMessage(state, out);
    const text = content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('\n');
    return [
      ...out,
      ...apiError(
        state,
        text || String(value.error ?? 'the model API failed'),
        num(value.api_error_status),
        str(value.error),
      ),
    ];
  }
  const id = str(message.id) ?? `message-${state.turn}`;
  if (state.streamedIds.has(id)) {
    // Already streamed block by block: only the parsed tool inputs are new.
    for (const block of content) {
      if (block.type !== 'tool_use' && block.type !== 'mcp_tool_use') continue;
      const toolId = str(block.id);
      const name = str(block.name);
      if (!toolId || !name) continue;
      startTool(state, toolId, name, out);
      readyTool(state, toolId, name, block.input ?? {}, out);
    }
    return out;
  }
  if (state.message?.id !== id) {
    closeMessage(state, out);
    state.message = { id, streamed: false, text: '', model: str(message.model), blocks: new Map() };
    out.push({ type: 'message_start', messageId: id, model: str(message.model) });
  }
  const open = state.message;
  if (!open) return out;
  for (const block of content) {
    if (block.type === 'text') {
      const text = str(block.text) ?? '';
      if (!text) continue;
      open.text += text;
      out.push({ type: 'text_delta', delta: text, messageId: id });
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const thinking = str(block.thinking) ?? '';
      out.push({ type: 'thinking_start', messageId: id });
      if (thinking) out.push({ type: 'thinking_delta', delta: thinking, messageId: id });
      out.push({ type: 'thinking_stop', messageId: id, thinking: thinking || undefined });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use') {
      const toolId = str(block.id);
      const name = str(block.name);
      if (!toolId || !name) {
        out.push(...malformed('tool_use block without an id or a name'));
        continue;
      }
      startTool(state, toolId, name, out);
      readyTool(state, toolId, name, block.input ?? {}, out);
    }
  }
  return out;
}

function user(value: Obj, state: ClaudeTranslatorState): EventDraft[] {
  const message = value.message;
  if (!isObj(message)) return malformed('user record without a message');
  const out: EventDraft[] = [];
  closeMessage(state, out);
  const content = Array.isArray(message.content) ? message.content.filter(isObj) : [];
  for (const block of content) {
    if (block.type !== 'tool_result') continue;
    const id = str(block.tool_use_id);
    if (!id) {
      out.push(...malformed('tool_result block without a tool_use_id'));
      continue;
    }
    const call = state.tools.get(id);
    const name = call?.name ?? 'unknown';
    if (!call) startTool(state, id, name, out);
    readyTool(state, id, name, parseJson(call?.json ?? '') ?? {}, out);
    state.tools.delete(id);
    const output = toolOutput(block.content);
    const isError = block.is_error === true;
    out.push({ type: 'tool_result', toolCallId: id, toolName: name, output, isError });
    const mcp = mcpName(name);
    if (mcp)
      out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  }
  return out.length > 0 ? out : unknown(state, 'a user message without tool results', value);
}

function startTool(state: ClaudeTranslatorState, id: string, name: string, out: EventDraft[]): void {
  if (state.tools.has(id)) return;
  state.tools.set(id, { name, json: '', ready: false });
  out.push({ type: 'tool_call_start', toolCallId: id, toolName: name });
}

function readyTool(state: ClaudeTranslatorState, id: string, name: string, input: unknown, out: EventDraft[]): void {
  const call = state.tools.get(id);
  if (!call || call.ready) return;
  call.ready = true;
  out.push({ type: 'tool_call_ready', toolCallId: id, toolName: name, input });
  const mcp = mcpName(name);
  if (mcp) out.push({ type: 'mcp_tool_call_start', toolCallId: id, server: mcp.server, toolName: mcp.tool, input });
}

function closeMessage(state: ClaudeTranslatorState, out: EventDraft[]): void {
  const message = state.message;
  if (!message) return;
  state.message = undefined;
  for (const block of message.blocks.values()) {
    if (block.kind === 'thinking')
      out.push({ type: 'thinking_stop', messageId: message.id, thinking: block.thinking || undefined });
  }
  out.push({ type: 'message_stop', messageId: message.id, text: message.text || undefined });
}

// ---------------------------------------------------------------------------------------------
// result and errors

function result(value: Obj, state: ClaudeTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  closeMessage(state, out);
  for (const [id, call] of state.tools) readyTool(state, id, call.name, parseJson(call.json) ?? {}, out);
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionId) state.sessionId = sessionId;
  const cost = totalCost(value, state);
  if (cost) out.push(cost);
  const subtype = str(value.subtype) ?? 'success';
  const isError = value.is_error === true || subtype.startsWith('error');
  const text = str(value.result);
  const errors = Array.isArray(value.errors) ? value.errors.filter((e): e is string => typeof e === 'string') : [];
  if (isError) {
    const message = text || errors.join('; ') || describeSubtype(subtype);
    if (!state.errorReported)
      out.push(...apiError(state, message, num(value.api_error_status), str(value.api_error_type), subtype));
    state.outcome = { status: 'failed', message };
  } else {
    state.outcome = { status: 'completed', output: text };
  }
  // `claude -p` runs one turn: its result record ends the run even if the process lingers.
  state.terminal = true;
  out.push({
    type: 'turn_end',
    turn: state.turn || undefined,
    stopReason: str(value.stop_reason) ?? (subtype === 'success' ? undefined : subtype),
    result: text,
    isError,
    durationMs: nonNegative(num(value.duration_ms)),
  });
  state.turnOpen = false;
  state.errorReported = false;
  return out;
}

function describeSubtype(subtype: string): string {
  switch (subtype) {
    case 'error_max_turns':
      return 'claude stopped: the maximum number of turns was reached';
    case 'error_max_budget_usd':
      return 'claude stopped: the maximum budget (--max-budget-usd) was reached';
    case 'error_during_execution':
      return 'claude failed during execution';
    default:
      return `claude failed (${subtype})`;
  }
}

interface Tally {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  thinking: number;
  usd?: number;
  models: Set<string>;
}

/**
 * The run's running total after a `result`. Claude Code's `total_cost_usd` and `modelUsage` count the
 * whole session, earlier runs of a resumed one included; `model_usage_since_last_result` (or `usage`)
 * counts this turn only. So the turns of this process are summed here and reported as `cumulative`,
 * which replaces the per-message increments streamed before.
 */
function totalCost(value: Obj, state: ClaudeTranslatorState): DraftOf<'cost'> | undefined {
  const turn = turnUsage(value, state);
  if (!turn) return undefined;
  const run = state.runCost;
  run.input += turn.input;
  run.output += turn.output;
  run.cacheRead += turn.cacheRead;
  run.cacheWrite += turn.cacheWrite;
  run.thinking += turn.thinking;
  run.usd = run.usd === undefined || turn.usd === undefined ? undefined : run.usd + turn.usd;
  for (const model of turn.models) run.models.add(model);
  return {
    type: 'cost',
    inputTokens: whole(run.input),
    outputTokens: whole(run.output),
    cacheReadTokens: whole(run.cacheRead),
    cacheWriteTokens: whole(run.cacheWrite),
    thinkingTokens: run.thinking > 0 ? whole(run.thinking) : undefined,
    model: run.models.size === 1 ? [...run.models][0] : undefined,
    usd: run.usd !== undefined && run.usd >= 0 ? run.usd : undefined,
    cumulative: true,
  };
}

function turnUsage(value: Obj, state: ClaudeTranslatorState): Tally | undefined {
  const since = isObj(value.model_usage_since_last_result) ? value.model_usage_since_last_result : undefined;
  const tally: Tally = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, thinking: 0, models: new Set() };
  if (since) {
    let usd: number | undefined = 0;
    for (const [model, u] of Object.entries(since)) {
      if (!isObj(u)) continue;
      tally.models.add(model);
      tally.input += num(u.inputTokens) ?? 0;
      tally.output += num(u.outputTokens) ?? 0;
      tally.cacheRead += num(u.cacheReadInputTokens) ?? 0;
      tally.cacheWrite += num(u.cacheCreationInputTokens) ?? 0;
      tally.thinking += num(u.thinkingTokens) ?? 0;
      const cost = num(u.costUSD);
      usd = usd === undefined || cost === undefined ? undefined : usd + cost;
    }
    tally.usd = usd;
    return tally;
  }
  const usd = num(value.total_cost_usd);
  if (!isObj(value.usage)) {
    if (usd === undefined) return undefined;
  } else {
    const u = value.usage;
    tally.input = num(u.input_tokens) ?? 0;
    tally.output = num(u.output_tokens) ?? 0;
    tally.cacheRead = num(u.cache_read_input_tokens) ?? 0;
    tally.cacheWrite = num(u.cache_creation_input_tokens) ?? 0;
    tally.thinking = isObj(u.output_tokens_details) ? (num(u.output_tokens_details.thinking_tokens) ?? 0) : 0;
  }
  if (isObj(value.modelUsage)) for (const model of Object.keys(value.modelUsage)) tally.models.add(model);
  // Without a per-turn figure, the session total is this run's only for a fresh session's first turn.
  if (usd !== undefined && !state.request?.resumeSessionId && state.turn <= 1) tally.usd = usd;
  return tally;
}

/** An API failure Claude Code reports (an `is_api_error_message` assistant record or an error result). */
function apiError(
  state: ClaudeTranslatorState,
  message: string,
  status: number | undefined,
  kind: string | undefined,
  subtype?: string,
): EventDraft[] {
  state.errorReported = true;
  const lower = message.toLowerCase();
  if (
    status === 401 ||
    status === 403 ||
    kind === 'authentication_failed' ||
    kind === 'authentication_error' ||
    kind === 'permission_error' ||
    lower.includes('invalid api key') ||
    lower.includes('not logged in') ||
    lower.includes('/login')
  ) {
    return [
      {
        type: 'auth_error',
        message,
        guidance: 'Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or log in with `claude auth login`.',
      },
    ];
  }
  if (status === 429 || kind === 'rate_limit' || kind === 'rate_limit_error') {
    return [{ type: 'rate_limit_error', message }];
  }
  if (lower.includes('prompt is too long') || lower.includes('context window') || lower.includes('context length')) {
    const used = /(\d+)\s*tokens?\s*>\s*(\d+)/.exec(message);
    return [
      {
        type: 'context_exceeded',
        message,
        usedTokens: used ? Number(used[1]) : undefined,
        maxTokens: used ? Number(used[2]) : undefined,
      },
    ];
  }
  const detail = subtype && subtype !== 'success' ? ` (${subtype})` : '';
  return [{ type: 'error', code: 'agent_error', message: `${message}${detail}`, recoverable: false }];
}

// ---------------------------------------------------------------------------------------------
// helpers

/** `mcp__<server>__<tool>` → its server and tool. */
export function mcpName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const split = rest.indexOf('__');
  if (split <= 0 || split + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}

function toolOutput(content: unknown): unknown {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const blocks = content.filter(isObj);
    if (blocks.length === content.length && blocks.every((b) => b.type === 'text' && typeof b.text === 'string')) {
      return blocks.map((b) => b.text as string).join('\n');
    }
    return content;
  }
  return content ?? null;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
