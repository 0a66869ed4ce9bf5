import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { acpTranslator } from '../../protocols/acp/acp-translator.ts';
import type { AcpTranslatorState } from '../../protocols/acp/acp-translator-state.ts';
import { isObj } from '../../shared/record-fields.ts';
import { withHermesTool } from './hermes-acp-tools.ts';
import { hermesErrorDrafts } from './hermes-errors.ts';

/** What the Hermes ACP translator keeps beyond the ACP one's. */
export interface HermesAcpState extends AcpTranslatorState {
  /** A message chunk that reads as Hermes's failure text, held until the turn's end says which it is. */
  held?: { record: NativeRecord; text: string };
}

/**
 * How Hermes words a failed turn's `final_response` (agent/conversation_loop.py, run_agent.py): over
 * ACP that text is sent as the turn's one `agent_message_chunk`, then `end_turn` — the 0.18.2
 * recordings show `HTTP 401: Incorrect API key provided: …` and `API call failed after 1 retries:
 * HTTP 429: …` (test/fixtures/streams/hermes/).
 */
const FAILURE_TEXT =
  /^(?:HTTP [45]\d\d: |API call failed after \d+ retr|Error: |Context length exceeded|Request payload too large|First response truncated)/;

/** A record with Hermes's tool calls named (see `withHermesTool`); the record itself otherwise. */
export function hermesAcpRecord(record: NativeRecord): NativeRecord {
  if (record.kind !== 'json' || !isObj(record.value)) return record;
  const message = record.value;
  const params = message.params;
  if (!isObj(params)) return record;
  if (message.method === 'session/update' && isObj(params.update)) {
    const kind = params.update.sessionUpdate;
    if (kind !== 'tool_call' && kind !== 'tool_call_update') return record;
    const update = withHermesTool(params.update);
    return update === params.update ? record : { ...record, value: { ...message, params: { ...params, update } } };
  }
  if (message.method === 'session/request_permission' && isObj(params.toolCall)) {
    const toolCall = withHermesTool(params.toolCall);
    return toolCall === params.toolCall
      ? record
      : { ...record, value: { ...message, params: { ...params, toolCall } } };
  }
  return record;
}

/** The text of an `agent_message_chunk` update, else undefined. */
function chunkText(record: NativeRecord): string | undefined {
  if (record.kind !== 'json' || !isObj(record.value) || record.value.method !== 'session/update') return undefined;
  const params = record.value.params;
  const update = isObj(params) ? params.update : undefined;
  if (!isObj(update) || update.sessionUpdate !== 'agent_message_chunk' || !isObj(update.content)) return undefined;
  return typeof update.content.text === 'string' ? update.content.text : undefined;
}

function isUsageUpdate(record: NativeRecord): boolean {
  if (record.kind !== 'json' || !isObj(record.value) || record.value.method !== 'session/update') return false;
  const params = record.value.params;
  return isObj(params) && isObj(params.update) && params.update.sessionUpdate === 'usage_update';
}

/** The `session/prompt` response's result (it has `stopReason`), else undefined. */
function promptResult(record: NativeRecord): Record<string, unknown> | undefined {
  if (record.kind !== 'json' || !isObj(record.value) || 'method' in record.value) return undefined;
  const result = record.value.result;
  return isObj(result) && typeof result.stopReason === 'string' ? result : undefined;
}

/**
 * Hermes Agent over ACP (`hermes acp`): the ACP translator, with what Hermes 0.18.2 leaves out put
 * back in.
 *
 * - Tool calls carry no name and, for Hermes's own tools, no `rawInput`: both come from the title and
 *   content (`terminal: <cmd>` → `terminal` `{command}`), see `hermesToolOf`.
 * - A failed turn ends `end_turn` like a good one, its error text sent as the answer and no `usage`
 *   in the response. A first message chunk worded as Hermes's failures is held: when the response
 *   ends the turn with no `usage`, it is the run's one typed error (`auth_error` for a 401,
 *   `rate_limit_error` for a 429, …) and the run failed; anything else (more text, a tool call, a
 *   response with usage) lets it through as the answer it was.
 * - Lines that are not JSON (a warning printed on stdout) are stdout `log` lines, never answer text.
 */
export const hermesAcpTranslator: Translator<HermesAcpState> = {
  init: (options) => acpTranslator.init(options) as HermesAcpState,
  translate(record, state) {
    const named = hermesAcpRecord(record);
    const text = chunkText(named);
    if (state.held === undefined && text !== undefined && !state.ledger.messageOpen && FAILURE_TEXT.test(text)) {
      state.held = { record: named, text };
      return [];
    }
    if (state.held === undefined || isUsageUpdate(named)) return acpTranslator.translate(named, state);
    const held = state.held;
    state.held = undefined;
    const result = promptResult(named);
    if (result && result.usage === undefined) {
      const out: EventDraft[] = [...hermesErrorDrafts(held.text)];
      state.failure = held.text;
      out.push(...acpTranslator.translate(named, state));
      return out;
    }
    return [...acpTranslator.translate(held.record, state), ...acpTranslator.translate(named, state)];
  },
  finish(exit, state) {
    const out: EventDraft[] = [];
    if (state.held) {
      out.push(...acpTranslator.translate(state.held.record, state));
      state.held = undefined;
    }
    return [...out, ...(acpTranslator.finish?.(exit, state) ?? [])];
  },
};
