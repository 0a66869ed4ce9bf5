import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { countOf, filled, isObj, malformed, nonNegative, num, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { ENVELOPE_KEYS, type OpenclawEnvelope, openclawEnvelopeSchema } from './openclaw-envelope.ts';
import { errorDrafts } from './openclaw-errors.ts';

export { errorDrafts } from './openclaw-errors.ts';

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
  /** The answer's message (one an envelope). */
  ledger: StreamLedger;
}

/** The translator of openclaw's one JSON envelope, collected from its pretty-printed lines. */
export const openclawTranslator: Translator<OpenclawState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    resumeFrom: request?.resumeSessionId,
    sawEnvelope: false,
    ledger: new StreamLedger(clock, { toolDurations: false }),
  }),

  translate(record: NativeRecord, state: OpenclawState): EventDraft[] {
    if (record.kind === 'json') return translateEnvelope(record.value, state);
    return translateLine(record.line, state);
  },

  finish(_exit, state: OpenclawState): EventDraft[] {
    // An envelope cut short (the program died mid-write): what was collected is output, not lost.
    const pending = state.pending;
    state.pending = undefined;
    if (!pending || pending.length === 0) return [];
    const parsed = parseJson(pending.join('\n'));
    if (parsed.ok) return translateEnvelope(parsed.value, state);
    return [...malformed('openclaw stopped in the middle of its JSON envelope'), ...textLines(pending)];
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
  return [...malformed(`openclaw printed an envelope that is not JSON (${parsed.error})`), ...textLines(lines)];
}

function textLines(lines: readonly string[]): EventDraft[] {
  return lines.map((line) => ({ type: 'text_delta', delta: `${line}\n` }));
}

/** One whole envelope to events; the run's outcome is set from it. */
function translateEnvelope(value: unknown, state: OpenclawState): EventDraft[] {
  if (!isObj(value)) return unknownRecord(state, 'an openclaw JSON value that is not an object', value);
  const parsed = openclawEnvelopeSchema.safeParse(value);
  if (!parsed.success) return unknownRecord(state, 'an openclaw JSON object that is not an envelope', value);
  const envelope = parsed.data;
  const { meta } = envelope;
  const agentMeta = meta?.agentMeta;
  const looksLikeEnvelope = ENVELOPE_KEYS.some((key) => key in value) || meta !== undefined;
  if (!looksLikeEnvelope) return unknownRecord(state, 'an openclaw JSON object without envelope fields', value);
  state.sawEnvelope = true;

  const out: EventDraft[] = [];
  const sessionId = envelope.sessionId ?? agentMeta?.sessionId;
  const provider = envelope.provider ?? agentMeta?.provider;
  const modelId = envelope.model ?? agentMeta?.model;
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

  const text = finalText(envelope);
  if (text) {
    state.ledger.startMessage(out, undefined, model);
    state.ledger.text(out, text);
    state.ledger.stopMessage(out);
  }

  const summary = toolSummaryText(isObj(envelope.toolSummary) ? envelope.toolSummary : meta?.toolSummary);
  if (summary) out.push({ type: 'progress', summary });

  const cost = costDraft(envelope.usage ?? agentMeta?.usage, envelope.costUsd ?? agentMeta?.costUsd, model);
  if (cost) out.push(cost);

  const failure = failureOf(envelope);
  const durationMs = meta?.durationMs;
  const stopReason = meta?.stopReason ?? filled(envelope.status);
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

function finalText(envelope: OpenclawEnvelope): string | undefined {
  if (envelope.final) return envelope.final;
  if (!Array.isArray(envelope.payloads)) return undefined;
  const texts = envelope.payloads.flatMap((p) => (isObj(p) && typeof p.text === 'string' && p.text ? [p.text] : []));
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

function toolSummaryText(summary: unknown): string | undefined {
  if (!isObj(summary)) return undefined;
  const calls = nonNegative(num(summary.calls)) ?? 0;
  if (calls === 0) return undefined;
  const tools = Array.isArray(summary.tools) ? summary.tools.filter((t) => typeof t === 'string') : [];
  const failures = nonNegative(num(summary.failures)) ?? 0;
  const names = tools.length > 0 ? `: ${tools.join(', ')}` : '';
  const failed = failures > 0 ? ` (${failures} failed)` : '';
  return `openclaw ran ${calls} tool call${calls === 1 ? '' : 's'}${names}${failed}`;
}

interface Failure {
  message: string;
  kind?: string;
}

function failureOf(envelope: OpenclawEnvelope): Failure | undefined {
  const meta = envelope.meta;
  const error = isObj(envelope.error) ? envelope.error : isObj(meta?.error) ? meta.error : undefined;
  const errorMessage = error
    ? (filled(error.message) ?? filled(error.type) ?? 'openclaw reported an error')
    : undefined;
  const kind = error ? (filled(error.kind) ?? filled(error.type)) : undefined;
  if (envelope.status === 'timeout')
    return { message: errorMessage ?? 'openclaw: the agent deadline passed', kind: 'timeout' };
  if (envelope.ok === false || envelope.status === 'error' || error) {
    return { message: errorMessage ?? 'openclaw reported a failed run', kind };
  }
  if (typeof envelope.error === 'string') return { message: envelope.error };
  return undefined;
}

function costDraft(usage: unknown, costUsd: unknown, model: string | undefined): DraftOf<'cost'> | undefined {
  if (!isObj(usage)) return undefined;
  const usdReported = nonNegative(num(costUsd)) ?? (isObj(usage.cost) ? nonNegative(num(usage.cost.total)) : undefined);
  return {
    type: 'cost',
    inputTokens: countOf(usage.input) ?? 0,
    outputTokens: countOf(usage.output) ?? 0,
    cacheReadTokens: countOf(usage.cacheRead),
    cacheWriteTokens: countOf(usage.cacheWrite),
    model,
    usd: usdReported,
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
