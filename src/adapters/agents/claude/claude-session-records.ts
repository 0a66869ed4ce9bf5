import type { EventDraft } from '../../../core/events/index.ts';
import { nonNegative, num, str, unknownRecord } from '../../shared/record-fields.ts';
import { startTurn } from '../../shared/start-turn.ts';
import { apiError } from './claude-api-error.ts';
import { claudeTotalCost } from './claude-cost.ts';
import type { ClaudeRecordOf } from './claude-record.ts';
import { type ClaudeTranslatorState, closeMessage } from './claude-state.ts';

/**
 * A `system` record: `init` → `session_start` (+ `session_resume` / `session_fork` when the request
 * resumed), then `turn_start`; `api_retry` on 429 → `rate_limit_error`; other subtypes → debug.
 */
export function claudeSystem(value: ClaudeRecordOf<'system'>, state: ClaudeTranslatorState): EventDraft[] {
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
      return unknownRecord(
        state,
        `claude retries the API request (${String(value.error ?? status ?? 'error')})`,
        value,
      );
    }
    default:
      return unknownRecord(state, `claude system record ${JSON.stringify(value.subtype)}`, value);
  }
}

/** A `result` record → `cost` (the process's running total, `cumulative`), `turn_end`, and `state.outcome`. */
export function claudeResult(value: ClaudeRecordOf<'result'>, state: ClaudeTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  closeMessage(state, out);
  state.ledger.finish(out);
  const sessionId = str(value.session_id);
  if (sessionId && !state.sessionId) state.sessionId = sessionId;
  const cost = claudeTotalCost(value, state);
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
