import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, malformed, num, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import { startTurn } from '../../shared/start-turn.ts';
import { apiError } from './claude-api-error.ts';
import type { ClaudeRecordOf } from './claude-record.ts';
import { type ClaudeTranslatorState, closeMessage, openMessage } from './claude-state.ts';

const blocksOf = (message: Obj): Obj[] => (Array.isArray(message.content) ? message.content.filter(isObj) : []);

/**
 * An `assistant` record → the message's events from whole blocks when it was not streamed; for a
 * streamed one only `tool_call_ready` (its input parsed). An API error message → `auth_error`,
 * `rate_limit_error`, `context_exceeded` or `error`.
 */
export function claudeAssistant(value: ClaudeRecordOf<'assistant'>, state: ClaudeTranslatorState): EventDraft[] {
  const message = value.message;
  const out: EventDraft[] = [];
  startTurn(state, out);
  const content = blocksOf(message);
  const ledger = state.ledger;
  if (value.is_api_error_message === true || (typeof value.error === 'string' && message.model === '<synthetic>')) {
    closeMessage(state, out);
    const text = content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('\n');
    out.push(
      ...apiError(
        state,
        text || String(value.error ?? 'the model API failed'),
        num(value.api_error_status),
        str(value.error),
      ),
    );
    return out;
  }
  const id = str(message.id) ?? `message-${state.turn}`;
  if (state.streamedIds.has(id)) {
    // Already streamed block by block: only the parsed tool inputs are new.
    for (const block of content) {
      if (block.type !== 'tool_use' && block.type !== 'mcp_tool_use') continue;
      const toolId = str(block.id);
      const name = str(block.name);
      if (toolId && name) ledger.readyTool(out, toolId, block.input ?? {}, name);
    }
    return out;
  }
  if (state.message?.id !== id) openMessage(state, out, { id, streamed: false, model: str(message.model) });
  for (const block of content) {
    switch (block.type) {
      case 'text':
        ledger.text(out, str(block.text) ?? '');
        break;
      case 'thinking':
      case 'redacted_thinking': {
        const thinking = str(block.thinking) ?? '';
        ledger.startThinking(out);
        ledger.thinking(out, thinking);
        ledger.stopThinking(out, thinking || null);
        break;
      }
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use': {
        const toolId = str(block.id);
        const name = str(block.name);
        if (toolId && name) ledger.readyTool(out, toolId, block.input ?? {}, name);
        else out.push(...malformed('tool_use block without an id or a name'));
        break;
      }
    }
  }
  return out;
}

/**
 * A `user` record with `tool_result` blocks → `tool_result` (and `mcp_tool_result` for
 * `mcp__<server>__<tool>`). One with text is a user message Claude Code took from stdin and echoes
 * (`--replay-user-messages`): its text goes to `state.takenInputs`, for the core to match with the
 * messages it wrote.
 */
export function claudeUser(value: ClaudeRecordOf<'user'>, state: ClaudeTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const text = userText(value.message);
  if (text !== undefined) {
    state.takenInputs ??= [];
    state.takenInputs.push(text);
    return [];
  }
  closeMessage(state, out);
  for (const block of blocksOf(value.message)) {
    if (block.type !== 'tool_result') continue;
    const id = str(block.tool_use_id);
    if (!id) {
      out.push(...malformed('tool_result block without a tool_use_id'));
      continue;
    }
    const name = state.ledger.toolName(id) ?? 'unknown';
    const output = toolOutput(block.content);
    const isError = block.is_error === true;
    state.ledger.toolResult(out, id, output, isError, name);
  }
  return out.length > 0 ? out : unknownRecord(state, 'a user message without tool results', value);
}

/** The text of a user message (a string, or text blocks only), undefined for one with tool results. */
function userText(message: Obj): string | undefined {
  if (typeof message.content === 'string') return message.content;
  const blocks = blocksOf(message);
  if (blocks.length === 0 || !blocks.every((b) => b.type === 'text' && typeof b.text === 'string')) return undefined;
  return blocks.map((b) => b.text as string).join('\n');
}

/** A tool result's content: its text blocks joined, else as it is. */
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
