import type { EventDraft } from '../../../core/events/index.ts';
import {
  countOf,
  isObj,
  malformed,
  nonNegative,
  num,
  type Obj,
  str,
  unknownRecord,
} from '../../shared/record-fields.ts';
import { acpSessionInfo } from './acp-session-info.ts';
import { acpTerminalMeta, acpToolInput, acpToolName, acpToolOutput } from './acp-tool-fields.ts';
import type { AcpTranslatorState } from './acp-translator-state.ts';
import { acpUpdateKind } from './acp-update-schema.ts';

/**
 * One `session/update` (its `update` object) as normalized event drafts. Pure.
 * Message and thought chunks stream as `message_*` / `thinking_*`; `tool_call` starts a tool call
 * (start and ready at once: ACP sends the whole input), a `completed` / `failed` status gives its
 * `tool_result`; `plan` is `progress`; a `usage_update` with a cost is a running-total `cost`.
 * Other kinds are `debug` in debug mode and dropped otherwise.
 */
export function acpUpdateDrafts(update: unknown, state: AcpTranslatorState): EventDraft[] {
  if (!isObj(update) || typeof update.sessionUpdate !== 'string') {
    return malformed('session/update without an update');
  }
  const kind = acpUpdateKind(update.sessionUpdate);
  if (kind === undefined) return unknownRecord(state, `ACP session update ${update.sessionUpdate}`, update);
  switch (kind) {
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
      return acpSessionInfo(update, state);
    default: {
      const never: never = kind;
      return unknownRecord(state, `ACP session update ${never}`, update);
    }
  }
}

/** Ends the message or thought being streamed, if any. */
export function closeOpen(state: AcpTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  state.ledger.stopMessage(out);
  return out;
}

function chunk(kind: 'text' | 'thinking', update: Obj, state: AcpTranslatorState): EventDraft[] {
  addChunkUsage(update._meta, state);
  const content = update.content;
  if (!isObj(content)) return malformed(`${String(update.sessionUpdate)} without content`);
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
    return unknownRecord(state, `ACP ${kind} chunk of type ${String(content.type)}`, update);
  }
  const messageId = str(update.messageId);
  const out: EventDraft[] = [];
  // A message and a thought never overlap: either closes the other.
  if (kind === 'text') {
    state.ledger.stopThinking(out);
    state.ledger.text(out, content.text, messageId);
  } else {
    state.ledger.stopMessage(out);
    state.ledger.thinking(out, content.text, messageId);
  }
  return out;
}

function toolCall(update: Obj, state: AcpTranslatorState): EventDraft[] {
  const toolCallId = update.toolCallId;
  if (typeof toolCallId !== 'string' || toolCallId === '')
    return malformed(`${update.sessionUpdate} without a toolCallId`);
  const out: EventDraft[] = [];
  state.ledger.stopMessage(out);
  let known = state.tools.get(toolCallId);
  if (!known) {
    known = { toolName: acpToolName(update), done: false };
    state.tools.set(toolCallId, known);
    // ACP sends the whole input with the call: start and ready at once.
    state.ledger.startTool(out, toolCallId, known.toolName);
    state.ledger.readyTool(out, toolCallId, acpToolInput(update));
  }
  const terminal = acpTerminalMeta(update);
  if (terminal.output !== undefined) known.terminalOutput = (known.terminalOutput ?? '') + terminal.output;
  const status = update.status;
  if ((status === 'completed' || status === 'failed') && !known.done) {
    known.done = true;
    const output = acpToolOutput(update);
    if (known.terminalOutput !== undefined) output.terminalOutput = known.terminalOutput;
    if (terminal.exitCode !== undefined) output.exitCode = terminal.exitCode;
    const isError = status === 'failed' || (terminal.exitCode !== undefined && terminal.exitCode !== 0);
    state.ledger.toolResult(out, toolCallId, output, isError, known.toolName);
  } else if (out.length === 0 && state.debug) {
    out.push({ type: 'debug', message: `ACP tool call ${toolCallId} ${String(status ?? 'updated')}`, data: update });
  }
  return out;
}

function planDraft(update: Obj): EventDraft {
  const entries = Array.isArray(update.entries) ? update.entries.filter(isObj) : [];
  const lines = entries.map((e) => `[${String(e.status ?? 'pending')}] ${String(e.content ?? '')}`);
  return {
    type: 'progress',
    summary: lines.length > 0 ? `plan:\n${lines.join('\n')}` : 'plan: (empty)',
    attempted: entries,
  };
}

function usage(update: Obj, state: AcpTranslatorState): EventDraft[] {
  const cost = update.cost;
  const amount = isObj(cost) ? nonNegative(num(cost.amount)) : undefined;
  if (amount !== undefined && isObj(cost) && cost.currency === 'USD') {
    state.usd = amount;
    return [{ type: 'cost', inputTokens: 0, outputTokens: 0, usd: amount, cumulative: true }];
  }
  return unknownRecord(state, `ACP usage: ${String(update.used)} of ${String(update.size)} context tokens`, update);
}

/** Qwen Code puts each model response's tokens in `_meta.usage` of a message chunk (ACP's `usage` names). */
function addChunkUsage(meta: unknown, state: AcpTranslatorState): void {
  if (!isObj(meta) || !isObj(meta.usage)) return;
  const usage = meta.usage;
  const sum = state.chunkUsage ?? { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, thoughtTokens: 0 };
  for (const key of Object.keys(sum) as (keyof typeof sum)[]) {
    sum[key] += countOf(usage[key]) ?? 0;
  }
  state.chunkUsage = sum;
}
