import type { EventDraft } from '../../../core/events/index.ts';
import { isObject } from './acp-message.ts';
import { acpTerminalMeta, acpToolInput, acpToolName, acpToolOutput } from './acp-tool-fields.ts';
import type { AcpTranslatorState } from './acp-translator-state.ts';

/**
 * One `session/update` (its `update` object) as normalized event drafts. Pure; never throws.
 * Message and thought chunks stream as `message_*` / `thinking_*`; `tool_call` starts a tool call
 * (start and ready at once: ACP sends the whole input), a `completed` / `failed` status gives its
 * `tool_result`; `plan` is `progress`; a `usage_update` with a cost is a running-total `cost`.
 * Other kinds are `debug` in debug mode and dropped otherwise.
 */
export function acpUpdateDrafts(update: unknown, state: AcpTranslatorState): EventDraft[] {
  if (!isObject(update) || typeof update.sessionUpdate !== 'string') {
    return [
      { type: 'error', code: 'malformed_record', message: 'session/update without an update', recoverable: true },
    ];
  }
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return chunk('text', update, state);
    case 'agent_thought_chunk':
      return chunk('thinking', update, state);
    case 'tool_call':
    case 'tool_call_update':
      return toolCall(update, state);
    case 'plan':
      return [...closeOpen(state), planDraft(update)];
    case 'usage_update':
      return usage(update, state);
    case 'session_info_update':
      return sessionInfo(update, state);
    default:
      return debug(state, `ACP session update ${update.sessionUpdate}`, update);
  }
}

/** Ends the message or thought being streamed, if any. */
export function closeOpen(state: AcpTranslatorState): EventDraft[] {
  const open = state.open;
  if (!open) return [];
  state.open = undefined;
  const id = open.messageId === undefined ? {} : { messageId: open.messageId };
  return open.kind === 'text'
    ? [{ type: 'message_stop', ...id, text: open.text }]
    : [{ type: 'thinking_stop', ...id, thinking: open.text }];
}

function chunk(kind: 'text' | 'thinking', update: Record<string, unknown>, state: AcpTranslatorState): EventDraft[] {
  addChunkUsage(update._meta, state);
  const content = update.content;
  if (!isObject(content)) return malformed(`${String(update.sessionUpdate)} without content`);
  if (content.type === 'image' && kind === 'text' && typeof content.mimeType === 'string') {
    return [
      ...closeOpen(state),
      {
        type: 'image_output',
        mimeType: content.mimeType,
        ...(typeof content.data === 'string' ? { data: content.data } : {}),
      },
    ];
  }
  if (content.type !== 'text' || typeof content.text !== 'string') {
    return debug(state, `ACP ${kind} chunk of type ${String(content.type)}`, update);
  }
  const messageId = typeof update.messageId === 'string' ? update.messageId : undefined;
  const out: EventDraft[] = [];
  const open = state.open;
  if (!open || open.kind !== kind || (messageId !== undefined && open.messageId !== messageId)) {
    out.push(...closeOpen(state));
    state.open = { kind, messageId, text: '' };
    const id = messageId === undefined ? {} : { messageId };
    out.push(kind === 'text' ? { type: 'message_start', ...id } : { type: 'thinking_start', ...id });
  }
  const current = state.open as NonNullable<AcpTranslatorState['open']>;
  current.text += content.text;
  const id = current.messageId === undefined ? {} : { messageId: current.messageId };
  out.push(
    kind === 'text'
      ? { type: 'text_delta', delta: content.text, ...id }
      : { type: 'thinking_delta', delta: content.text, ...id },
  );
  return out;
}

function toolCall(update: Record<string, unknown>, state: AcpTranslatorState): EventDraft[] {
  const toolCallId = update.toolCallId;
  if (typeof toolCallId !== 'string' || toolCallId === '')
    return malformed(`${update.sessionUpdate} without a toolCallId`);
  const out: EventDraft[] = [...closeOpen(state)];
  let known = state.tools.get(toolCallId);
  if (!known) {
    known = { toolName: acpToolName(update), done: false };
    state.tools.set(toolCallId, known);
    out.push(
      { type: 'tool_call_start', toolCallId, toolName: known.toolName },
      { type: 'tool_call_ready', toolCallId, toolName: known.toolName, input: acpToolInput(update) },
    );
  }
  const terminal = acpTerminalMeta(update);
  if (terminal.output !== undefined) known.terminalOutput = (known.terminalOutput ?? '') + terminal.output;
  const status = update.status;
  if ((status === 'completed' || status === 'failed') && !known.done) {
    known.done = true;
    const output = acpToolOutput(update);
    if (known.terminalOutput !== undefined) output.terminalOutput = known.terminalOutput;
    if (terminal.exitCode !== undefined) output.exitCode = terminal.exitCode;
    out.push({
      type: 'tool_result',
      toolCallId,
      toolName: known.toolName,
      output,
      isError: status === 'failed' || (terminal.exitCode !== undefined && terminal.exitCode !== 0),
    });
  } else if (out.length === 0 && state.debug) {
    out.push({ type: 'debug', message: `ACP tool call ${toolCallId} ${String(status ?? 'updated')}`, data: update });
  }
  return out;
}

function planDraft(update: Record<string, unknown>): EventDraft {
  const entries = Array.isArray(update.entries) ? update.entries.filter(isObject) : [];
  const lines = entries.map((e) => `[${String(e.status ?? 'pending')}] ${String(e.content ?? '')}`);
  return {
    type: 'progress',
    summary: lines.length > 0 ? `plan:\n${lines.join('\n')}` : 'plan: (empty)',
    attempted: entries,
  };
}

function usage(update: Record<string, unknown>, state: AcpTranslatorState): EventDraft[] {
  const cost = update.cost;
  if (isObject(cost) && typeof cost.amount === 'number' && Number.isFinite(cost.amount) && cost.amount >= 0) {
    if (cost.currency === 'USD') {
      state.usd = cost.amount;
      return [{ type: 'cost', inputTokens: 0, outputTokens: 0, usd: cost.amount, cumulative: true }];
    }
  }
  return debug(state, `ACP usage: ${String(update.used)} of ${String(update.size)} context tokens`, update);
}

/**
 * codex-acp reports model errors in `_meta.codex`: `error` (message, `codexErrorInfo.*.httpStatusCode`,
 * `willRetry`) while it retries, then `threadStatus: systemError` when it gives up, and ends the
 * turn `end_turn` with the error as message text. The error becomes `auth_error` /
 * `rate_limit_error` / `error` when the agent gives up, and the turn's end a failure.
 */
function sessionInfo(update: Record<string, unknown>, state: AcpTranslatorState): EventDraft[] {
  const codex = isObject(update._meta) && isObject(update._meta.codex) ? update._meta.codex : undefined;
  if (!codex) return debug(state, 'ACP session info', update);
  const error = codex.error;
  if (isObject(error)) {
    const message = [error.message, error.additionalDetails]
      .filter((m) => typeof m === 'string' && m !== '')
      .join(': ');
    state.lastError = { message: message || 'the model request failed', ...httpStatusOf(error.codexErrorInfo) };
    if (error.willRetry !== false) return debug(state, 'ACP agent retries after an error', update);
  }
  const status = isObject(codex.threadStatus) ? codex.threadStatus.type : undefined;
  if ((status === 'systemError' || isObject(error)) && state.lastError && state.failure === undefined) {
    const { message, httpStatus } = state.lastError;
    state.failure = message;
    const out: EventDraft[] = [...closeOpen(state)];
    if (httpStatus === 401 || httpStatus === 403) out.push({ type: 'auth_error', message });
    else if (httpStatus === 429 || /\b429\b|rate.?limit|too many requests/i.test(message))
      out.push({ type: 'rate_limit_error', message });
    else out.push({ type: 'error', code: 'agent_error', message, recoverable: false });
    return out;
  }
  return debug(state, 'ACP session info', update);
}

/** The HTTP status in codex's `codexErrorInfo` (`{ <kind>: { httpStatusCode } }`), if any. */
function httpStatusOf(info: unknown): { httpStatus?: number } {
  if (!isObject(info)) return {};
  for (const value of Object.values(info)) {
    if (isObject(value) && typeof value.httpStatusCode === 'number') return { httpStatus: value.httpStatusCode };
  }
  return {};
}

function debug(state: AcpTranslatorState, message: string, data: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

/** Qwen Code puts each model response's tokens in `_meta.usage` of a message chunk (ACP's `usage` names). */
function addChunkUsage(meta: unknown, state: AcpTranslatorState): void {
  if (!isObject(meta) || !isObject(meta.usage)) return;
  const usage = meta.usage;
  const sum = state.chunkUsage ?? { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, thoughtTokens: 0 };
  for (const key of Object.keys(sum) as (keyof typeof sum)[]) {
    const value = usage[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) sum[key] += Math.floor(value);
  }
  state.chunkUsage = sum;
}
