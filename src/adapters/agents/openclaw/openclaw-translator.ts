import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';

/**
 * OpenClaw prints no event stream. `openclaw agent exec --json` (and `openclaw agent --local --json`,
 * used to resume) write one pretty-printed JSON envelope to stdout when the turn is over; every
 * diagnostic goes to stderr. The plan runs with the `text` protocol, so this translator gets the
 * envelope line by line, collects it from a `{` line to the matching `}` line, and translates it
 * once whole. Lines outside an envelope (plain output, junk) become text.
 *
 * Envelopes seen from openclaw 2026.9.6:
 * - exec: `{ok, status: ok|error|timeout, final, payloads[{text}], usage{input,output,cacheRead,
 *   cacheWrite,total,cost{total}}, costUsd?, assistantTurns?, toolSummary?{calls,tools,failures},
 *   model, provider, sessionId, error?{message,kind}}`
 * - `agent --local`: `{payloads, meta{durationMs, agentMeta{sessionId, provider, model, usage},
 *   toolSummary?, stopReason?, error?}}`
 * - CLI failures: `{ok: false, error{type: 'cli_error', message}}`
 */
export interface OpenclawState extends TranslatorState {
  /** Lines of the envelope being collected, or undefined outside one. */
  pending?: string[];
  /** The session a resumed run continues (the request's resumeSessionId). */
  resumeFrom?: string;
  /** True once an envelope was translated. */
  sawEnvelope: boolean;
}

export const openclawTranslator: Translator<OpenclawState> = {
  init: ({ debug, request }) => ({ debug, resumeFrom: request?.resumeSessionId, sawEnvelope: false }),

  translate(record: NativeRecord, state: OpenclawState): EventDraft[] {
    try {
      if (record.kind === 'json') return translateEnvelope(record.value, state);
      return translateLine(record.line, state);
    } catch (error) {
      return [malformed(`openclaw record could not be translated: ${String(error)}`)];
    }
  },

  finish(_exit, state: OpenclawState): EventDraft[] {
    // An envelope cut short (the program died mid-write): what was collected is output, not lost.
    const pending = state.pending;
    state.pending = undefined;
    if (!pending || pending.length === 0) return [];
    const parsed = parseJson(pending.join('\n'));
    if (parsed.ok) return translateEnvelope(parsed.value, state);
    return [malformed('openclaw stopped in the middle of its JSON envelope'), ...textLines(pending)];
  },
};

function translateLine(rawLine: string, state: OpenclawState): EventDraft[] {
  const line = rawLine.replace(/\r$/, '');
  if (state.pending) {
    if (line === '}') {
      const lines = [...state.pending, line];
      state.pending = undefined;
      return closeEnvelope(lines, state);
    }
    // Inside a pretty-printed envelope every line is indented; anything else was interleaved.
    if (/^\s+\S/.test(line)) {
      state.pending.push(line);
      return [];
    }
    return line.trim() === '' ? [] : textLines([line]);
  }
  if (line === '{') {
    state.pending = [line];
    return [];
  }
  const trimmed = line.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    const parsed = parseJson(trimmed);
    if (parsed.ok) return translateEnvelope(parsed.value, state);
  }
  return textLines([line]);
}

function closeEnvelope(lines: string[], state: OpenclawState): EventDraft[] {
  const parsed = parseJson(lines.join('\n'));
  if (parsed.ok) return translateEnvelope(parsed.value, state);
  return [malformed(`openclaw printed an envelope that is not JSON (${parsed.error})`), ...textLines(lines)];
}

function textLines(lines: readonly string[]): EventDraft[] {
  return lines.map((line) => ({ type: 'text_delta', delta: `${line}\n` }));
}

/** One whole envelope to events; the run's outcome is set from it. */
function translateEnvelope(value: unknown, state: OpenclawState): EventDraft[] {
  if (!isObject(value)) return unknown(state, 'an openclaw JSON value that is not an object', value);
  const meta = isObject(value.meta) ? value.meta : undefined;
  const agentMeta = meta && isObject(meta.agentMeta) ? meta.agentMeta : undefined;
  const looksLikeEnvelope =
    'ok' in value || 'status' in value || 'payloads' in value || 'final' in value || meta !== undefined;
  if (!looksLikeEnvelope) return unknown(state, 'an openclaw JSON object without envelope fields', value);
  state.sawEnvelope = true;

  const out: EventDraft[] = [];
  const sessionId = str(value.sessionId) ?? str(agentMeta?.sessionId);
  const provider = str(value.provider) ?? str(agentMeta?.provider);
  const modelId = str(value.model) ?? str(agentMeta?.model);
  const model = modelId ? (provider ? `${provider}/${modelId}` : modelId) : undefined;
  if (sessionId) {
    state.sessionId = sessionId;
    out.push(
      state.resumeFrom
        ? { type: 'session_resume', sessionId, previousSessionId: state.resumeFrom }
        : { type: 'session_start', sessionId, model },
    );
  }
  out.push({ type: 'turn_start' });

  const text = finalText(value);
  if (text) {
    out.push({ type: 'message_start', model });
    out.push({ type: 'text_delta', delta: text });
    out.push({ type: 'message_stop', text });
  }

  const toolSummary = isObject(value.toolSummary) ? value.toolSummary : meta?.toolSummary;
  const summary = toolSummaryText(toolSummary);
  if (summary) out.push({ type: 'progress', summary });

  const cost = costDraft(value.usage ?? agentMeta?.usage, value.costUsd ?? agentMeta?.costUsd, model);
  if (cost) out.push(cost);

  const failure = failureOf(value, meta);
  const durationMs = num(meta?.durationMs);
  const stopReason = str(meta?.stopReason) ?? str(value.status);
  if (failure) {
    out.push(...errorDrafts(failure.message, failure.kind));
    out.push({ type: 'turn_end', stopReason, isError: true, durationMs });
    state.outcome = { status: 'failed', message: failure.message };
  } else {
    out.push({ type: 'turn_end', stopReason, result: text, isError: false, durationMs });
    state.outcome = { status: 'completed', output: text };
  }
  return out;
}

function finalText(value: Record<string, unknown>): string | undefined {
  const final = str(value.final);
  if (final) return final;
  if (!Array.isArray(value.payloads)) return undefined;
  const texts = value.payloads.flatMap((p) => (isObject(p) && typeof p.text === 'string' && p.text ? [p.text] : []));
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

function toolSummaryText(summary: unknown): string | undefined {
  if (!isObject(summary)) return undefined;
  const calls = num(summary.calls) ?? 0;
  if (calls === 0) return undefined;
  const tools = Array.isArray(summary.tools) ? summary.tools.filter((t) => typeof t === 'string') : [];
  const failures = num(summary.failures) ?? 0;
  const names = tools.length > 0 ? `: ${tools.join(', ')}` : '';
  const failed = failures > 0 ? ` (${failures} failed)` : '';
  return `openclaw ran ${calls} tool call${calls === 1 ? '' : 's'}${names}${failed}`;
}

interface Failure {
  message: string;
  kind?: string;
}

function failureOf(value: Record<string, unknown>, meta: Record<string, unknown> | undefined): Failure | undefined {
  const error = isObject(value.error) ? value.error : meta && isObject(meta.error) ? meta.error : undefined;
  const errorMessage = error ? (str(error.message) ?? str(error.type) ?? 'openclaw reported an error') : undefined;
  const kind = error ? (str(error.kind) ?? str(error.type)) : undefined;
  if (value.status === 'timeout')
    return { message: errorMessage ?? 'openclaw: the agent deadline passed', kind: 'timeout' };
  if (value.ok === false || value.status === 'error' || error) {
    return { message: errorMessage ?? 'openclaw reported a failed run', kind };
  }
  if (typeof value.error === 'string') return { message: value.error };
  return undefined;
}

/** Classifies a failure message: openclaw reports provider errors only as text (`HTTP 401`, `rate limit`). */
export function errorDrafts(message: string, kind?: string): EventDraft[] {
  if (kind === 'timeout') return [{ type: 'error', code: 'timeout', message, recoverable: false }];
  if (
    /\b401\b|\b403\b|authenticat|unauthori[sz]ed|invalid (x-)?api[- ]key|re-authenticate|no api key|missing api key/i.test(
      message,
    )
  ) {
    return [
      {
        type: 'auth_error',
        message,
        guidance:
          'Check the provider credentials OpenClaw uses (openclaw models auth, ~/.openclaw/.env or the provider key env var).',
      },
    ];
  }
  if (/\b429\b|rate[- ]limit|too many requests|quota/i.test(message)) {
    const retry = /retry[- ]after:?\s*(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i.exec(message);
    const retryAfterMs = retry ? Number(retry[1]) * (retry[2] === 'ms' ? 1 : 1000) : undefined;
    return [{ type: 'rate_limit_error', message, retryAfterMs }];
  }
  if (/context (window|length|overflow)|too many tokens|prompt is too long|maximum context/i.test(message)) {
    return [{ type: 'context_exceeded', message }];
  }
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}

function costDraft(usage: unknown, costUsd: unknown, model: string | undefined): DraftOf<'cost'> | undefined {
  if (!isObject(usage)) return undefined;
  const usdReported = num(costUsd) ?? (isObject(usage.cost) ? num(usage.cost.total) : undefined);
  return {
    type: 'cost',
    inputTokens: tokens(usage.input) ?? 0,
    outputTokens: tokens(usage.output) ?? 0,
    cacheReadTokens: tokens(usage.cacheRead),
    cacheWriteTokens: tokens(usage.cacheWrite),
    model,
    usd: usdReported,
  };
}

function unknown(state: OpenclawState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}

function malformed(message: string): DraftOf<'error'> {
  return { type: 'error', code: 'malformed_record', message, recoverable: true };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function tokens(value: unknown): number | undefined {
  const n = num(value);
  return n === undefined ? undefined : Math.floor(n);
}
