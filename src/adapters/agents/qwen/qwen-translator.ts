import { z } from 'zod';
import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import type { ClaudeRecordOf } from '../claude/claude-record.ts';
import { claudeStreamEvent } from '../claude/claude-stream-events.ts';
import { type ClaudeTranslatorState, claudeTranslator } from '../claude/claude-translator.ts';
import { classifyApiError } from '../gemini/gemini-error-table.ts';

export type QwenTranslatorState = ClaudeTranslatorState;

/**
 * The Anthropic SSE events Qwen Code forwards in `stream_event`; others (`goal_state`) are its own.
 * A switch, most frequent first: a look-up in a set hashes each type string fresh from `JSON.parse`
 * (the largest single cost of this translator; bench adapter-translation).
 */
function isAnthropicStreamEvent(type: unknown): boolean {
  switch (type) {
    case 'content_block_delta':
    case 'content_block_start':
    case 'content_block_stop':
    case 'message_start':
    case 'message_delta':
    case 'message_stop':
    case 'ping':
    case 'error':
      return true;
    default:
      return false;
  }
}

/**
 * The text of an `assistant` record made of text blocks only, when it is Qwen Code's report of a
 * failed model call (`[API Error: …`); undefined for any other record. Its first block settles most
 * records without joining the text (issue 18: every assistant record paid for the join).
 */
function apiErrorText(value: Obj): string | undefined {
  const message = isObj(value.message) ? value.message : undefined;
  const content = Array.isArray(message?.content) ? message.content : [];
  const first: unknown = content[0];
  if (!isObj(first) || first.type !== 'text' || typeof first.text !== 'string') return undefined;
  // A first block that is neither the report's start nor a prefix of it: not a report.
  if (
    !first.text.startsWith(API_ERROR) &&
    !(first.text.length < API_ERROR.length && API_ERROR.startsWith(first.text))
  ) {
    return undefined;
  }
  if (!content.every((b) => isObj(b) && b.type === 'text' && typeof b.text === 'string')) return undefined;
  const text = content.map((b) => (b as Obj).text as string).join('');
  return text.startsWith(API_ERROR) ? text : undefined;
}

const API_ERROR = '[API Error';

/**
 * Translates Qwen Code's `--output-format stream-json --include-partial-messages` records
 * (recorded from qwen 0.24.4, src/adapters/agents/qwen/README.md). Unlike its parent Gemini CLI, Qwen Code
 * prints Claude Code's stream-json format (`system`/`init`, `stream_event` with Anthropic SSE
 * events, `assistant`, `user` tool results, `result`), so the Claude translator does the work and
 * this one adds what Qwen Code prints differently:
 *
 * - a model API failure is an `assistant` text `[API Error: 401 …]` and a `result` with
 *   `error.message` → `auth_error` / `rate_limit_error` / `context_exceeded` / `error`
 *   (classified as for Gemini CLI, gemini-error-table.ts);
 * - `system` `retry` {attempt, maxRetries, delayMs} (its backoff on 429/5xx) → `rate_limit_error`;
 * - `stream_event` `goal_state` and other Qwen-only events → debug.
 */
export const qwenTranslator: Translator<QwenTranslatorState> = {
  init: (ctx) => claudeTranslator.init(ctx),

  translate(record: NativeRecord, state: QwenTranslatorState): EventDraft[] {
    if (record.kind !== 'json' || !isObj(record.value)) return claudeTranslator.translate(record, state);
    const value = record.value;
    switch (value.type) {
      case 'stream_event': {
        const event = isObj(value.event) ? value.event : undefined;
        // Straight to the Claude translator's stream events: the record is known to be one with an
        // event of a known type (what `claudeRecord` checks), without its dispatch again.
        if (isAnthropicStreamEvent(event?.type))
          return claudeStreamEvent(value as ClaudeRecordOf<'stream_event'>, state);
        // Qwen Code's own events (`goal_state`): the message only made when it is shown.
        return state.debug ? unknownRecord(state, `qwen stream event ${JSON.stringify(event?.type)}`, value) : [];
      }
      case 'system':
        return value.subtype === 'retry' ? retry(value, state) : claudeTranslator.translate(record, state);
      case 'assistant': {
        const text = apiErrorText(value);
        const out = claudeTranslator.translate(record, state);
        if (text === undefined) return out;
        if (!state.errorReported) out.push(classifyApiError(text.split('\n')[0] ?? text));
        state.errorReported = true;
        return out;
      }
      case 'result': {
        const failed = value.is_error === true || String(value.subtype).startsWith('error');
        const error = isObj(value.error) ? value.error : undefined;
        const message = failed ? (str(error?.message) ?? str(value.result)) : undefined;
        if (!message) return claudeTranslator.translate(record, state);
        const out: EventDraft[] = [];
        if (!state.errorReported) out.push(classifyApiError(message.split('\n')[0] ?? message));
        state.errorReported = true;
        out.push(...claudeTranslator.translate({ kind: 'json', value: { ...value, result: message } }, state));
        return out;
      }
      default:
        return claudeTranslator.translate(record, state);
    }
  },

  stderr: claudeTranslator.stderr,
  finish: (exit, state) => claudeTranslator.finish?.(exit, state) ?? [],
};

/** `system` `retry`'s data: the attempt decides; the rest is read when it is a number. */
const retryDataSchema = z
  .object({
    attempt: z.number(),
    maxRetries: z.number().optional().catch(undefined),
    delayMs: z.number().nonnegative().optional().catch(undefined),
  })
  .loose();

function retry(value: Obj, state: QwenTranslatorState): EventDraft[] {
  const data = retryDataSchema.safeParse(value.data);
  if (!data.success) return unknownRecord(state, 'qwen retries the request', value);
  const { attempt, maxRetries: max, delayMs } = data.data;
  return [
    {
      type: 'rate_limit_error',
      message: `the model API is rate limited or overloaded: qwen retries (attempt ${attempt}${max !== undefined ? ` of ${max}` : ''})`,
      retryAfterMs: delayMs,
    },
  ];
}
