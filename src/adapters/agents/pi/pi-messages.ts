import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { count, isObj, malformed, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import { classifyError } from './pi-error.ts';
import type { PiRecordOf } from './pi-record.ts';
import type { PiTranslatorState } from './pi-state.ts';

const ASSISTANT: Obj = { role: 'assistant' };

/** An assistant `message_start` → `message_start` of `msg_<n>` (the open one closed first). */
export function piMessageStart(message: Obj, state: PiTranslatorState): EventDraft[] {
  if (message.role !== 'assistant') return [];
  const out: EventDraft[] = [];
  if (state.ledger.messageOpen) closePiMessage(state, out);
  state.messageCount += 1;
  state.toolIndex.clear();
  state.ledger.startMessage(out, `msg_${state.messageCount}`, str(message.model));
  return out;
}

/** Closes the open message: its thinking without text, the message with `message`'s text if given. */
export function closePiMessage(state: PiTranslatorState, out: EventDraft[], message?: Obj): void {
  state.ledger.stopThinking(out, null);
  state.ledger.stopMessage(out, (message && messageText(message)) || null);
}

/** A `message_update`: one `assistantMessageEvent` of the streamed message. */
export function piMessageUpdate(value: PiRecordOf<'message_update'>, state: PiTranslatorState): EventDraft[] {
  const event = value.assistantMessageEvent;
  const ledger = state.ledger;
  const out: EventDraft[] = ledger.messageOpen
    ? []
    : piMessageStart(isObj(value.message) ? { ...value.message, role: 'assistant' } : ASSISTANT, state);
  const index = typeof event.contentIndex === 'number' ? event.contentIndex : -1;
  switch (event.type) {
    case 'text_delta':
      ledger.text(out, str(event.delta) ?? '');
      return out;
    case 'thinking_start':
      ledger.startThinking(out);
      return out;
    case 'thinking_delta':
      ledger.startThinking(out);
      ledger.thinking(out, str(event.delta) ?? '');
      return out;
    case 'thinking_end':
      ledger.stopThinking(out, str(event.content) ?? null);
      return out;
    case 'toolcall_start': {
      // pi carries the call in `partial.content[contentIndex]`; omp sends no partial, so the
      // call is announced at `toolcall_end` (or `tool_execution_start`) instead.
      const partial = isObj(event.partial) && Array.isArray(event.partial.content) ? event.partial.content : [];
      const call: unknown = partial[index];
      const id = isObj(call) ? str(call.id) : undefined;
      const name = isObj(call) ? str(call.name) : undefined;
      if (id && name) {
        state.toolIndex.set(index, id);
        ledger.startTool(out, id, name);
      }
      return out;
    }
    case 'toolcall_delta': {
      const id = state.toolIndex.get(index);
      if (id) ledger.toolInput(out, id, str(event.delta) ?? '');
      return out;
    }
    case 'toolcall_end': {
      const call = isObj(event.toolCall) ? event.toolCall : undefined;
      const id = str(call?.id);
      const name = str(call?.name);
      if (!id || !name) out.push(...malformed('toolcall_end without id'));
      else ledger.readyTool(out, id, call?.arguments ?? {}, name);
      return out;
    }
    case 'start':
    case 'text_start':
    case 'text_end':
    case 'done':
    case 'error':
      return out;
    default:
      out.push(...unknownRecord(state, `unknown assistantMessageEvent ${JSON.stringify(event.type)}`, event));
      return out;
  }
}

/**
 * An assistant `message_end`: tool calls not streamed, the message's close, its cost and failure.
 * A user's: pi took it into the conversation (the prompt, or a message given mid-run): its text
 * goes to `state.takenInputs`, for the core to match with the messages it wrote.
 */
export function piMessageEnd(message: Obj, state: PiTranslatorState): EventDraft[] {
  if (message.role === 'user') {
    const text = messageText(message);
    if (text) {
      state.takenInputs ??= [];
      state.takenInputs.push(text);
    }
    return [];
  }
  if (message.role !== 'assistant') return [];
  const out: EventDraft[] = state.ledger.messageOpen ? [] : piMessageStart(message, state);
  // Tool calls the stream did not announce (a provider that does not stream tool input).
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObj(block) || block.type !== 'toolCall') continue;
      const id = str(block.id);
      const name = str(block.name);
      if (id && name) state.ledger.readyTool(out, id, block.arguments ?? {}, name);
    }
  }
  closePiMessage(state, out, message);
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

/**
 * A line that is not JSON (a warning an extension printed, …): its own text message between the
 * agent's messages, a `log` line inside one (so it never splits the streamed text).
 */
export function piPlainText(line: string, state: PiTranslatorState): EventDraft[] {
  if (!line.trim()) return [];
  if (state.ledger.messageOpen) return [{ type: 'log', source: 'stdout', line }];
  state.messageCount += 1;
  const out: EventDraft[] = [];
  state.ledger.startMessage(out, `msg_${state.messageCount}`);
  state.ledger.text(out, `${line}\n`);
  state.ledger.stopMessage(out, line);
  return out;
}

function messageText(message: Obj): string {
  if (!Array.isArray(message.content)) return '';
  let text = '';
  for (const block of message.content) {
    if (isObj(block) && block.type === 'text' && typeof block.text === 'string') text += block.text;
  }
  return text;
}

/** `usage` of one assistant message (per request, not a running total); `cost.total` is pi's own USD estimate. */
function costDraft(message: Obj): DraftOf<'cost'> | undefined {
  const usage = message.usage;
  if (!isObj(usage)) return undefined;
  const inputTokens = count(usage.input);
  const outputTokens = count(usage.output);
  const cacheReadTokens = count(usage.cacheRead);
  const cacheWriteTokens = count(usage.cacheWrite);
  if (inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens === 0) return undefined;
  const total = isObj(usage.cost) ? usage.cost.total : undefined;
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
