import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, num, type Obj, str } from '../../shared/record-fields.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';
import { type ClaudeTranslatorState, claudeTranslator } from '../claude/claude-translator.ts';
import { classifyApiError } from '../gemini/gemini-error-table.ts';

export type QwenTranslatorState = ClaudeTranslatorState;

/** The Anthropic SSE events Qwen Code forwards in `stream_event`; others (`goal_state`) are its own. */
const ANTHROPIC_STREAM_EVENTS = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);

/** The text of an `assistant` record made of text blocks only. */
function assistantText(value: Obj): string | undefined {
  const message = isObj(value.message) ? value.message : undefined;
  const content = Array.isArray(message?.content) ? message.content : [];
  if (content.length === 0 || !content.every((b) => isObj(b) && b.type === 'text' && typeof b.text === 'string')) {
    return undefined;
  }
  return content.map((b) => (b as Obj).text as string).join('');
}

/**
 * Translates Qwen Code's `--output-format stream-json --include-partial-messages` records
 * (recorded from qwen 0.24.4, docs/adapters/qwen.md). Unlike its parent Gemini CLI, Qwen Code
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
    try {
      if (value.type === 'system' && value.subtype === 'retry') return retry(value, state);
      if (value.type === 'stream_event') {
        const event = isObj(value.event) ? value.event : undefined;
        if (!ANTHROPIC_STREAM_EVENTS.has(String(event?.type))) {
          return state.debug
            ? [{ type: 'debug', message: `qwen stream event ${JSON.stringify(event?.type)}`, data: value }]
            : [];
        }
      }
      if (value.type === 'assistant') {
        const text = assistantText(value);
        if (text?.startsWith('[API Error')) {
          const out = claudeTranslator.translate(record, state);
          if (!state.errorReported) out.push(classifyApiError(text.split('\n')[0] ?? text));
          state.errorReported = true;
          return out;
        }
      }
      if (value.type === 'result' && (value.is_error === true || String(value.subtype).startsWith('error'))) {
        const error = isObj(value.error) ? value.error : undefined;
        const message = str(error?.message) ?? str(value.result);
        if (message) {
          const out: EventDraft[] = [];
          if (!state.errorReported) out.push(classifyApiError(message.split('\n')[0] ?? message));
          state.errorReported = true;
          return [...out, ...claudeTranslator.translate({ kind: 'json', value: { ...value, result: message } }, state)];
        }
      }
    } catch (error) {
      return translatorFailure('qwen', error);
    }
    return claudeTranslator.translate(record, state);
  },

  stderr: claudeTranslator.stderr,
  finish: (exit, state) => claudeTranslator.finish?.(exit, state) ?? [],
};

function retry(value: Obj, state: QwenTranslatorState): EventDraft[] {
  const data = isObj(value.data) ? value.data : {};
  const attempt = num(data.attempt);
  if (attempt === undefined)
    return state.debug ? [{ type: 'debug', message: 'qwen retries the request', data: value }] : [];
  const max = num(data.maxRetries);
  const delay = num(data.delayMs);
  return [
    {
      type: 'rate_limit_error',
      message: `the model API is rate limited or overloaded: qwen retries (attempt ${attempt}${max !== undefined ? ` of ${max}` : ''})`,
      retryAfterMs: delay !== undefined && delay >= 0 ? delay : undefined,
    },
  ];
}
