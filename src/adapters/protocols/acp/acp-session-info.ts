import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, type Obj, unknownRecord } from '../../shared/record-fields.ts';
import { acpErrorDraft } from './acp-provider-errors.ts';
import type { AcpTranslatorState } from './acp-translator-state.ts';

/**
 * A `session_info_update`. codex-acp reports model errors in `_meta.codex`: `error` (message,
 * `codexErrorInfo.*.httpStatusCode`, `willRetry`) while it retries, then `threadStatus: systemError`
 * when it gives up, and ends the turn `end_turn` with the error as message text. The error becomes
 * `auth_error` / `rate_limit_error` / `error` when the agent gives up, and the turn's end a failure.
 */
export function acpSessionInfo(update: Obj, state: AcpTranslatorState): EventDraft[] {
  const codex = isObj(update._meta) && isObj(update._meta.codex) ? update._meta.codex : undefined;
  if (!codex) return unknownRecord(state, 'ACP session info', update);
  const error = codex.error;
  if (isObj(error)) {
    const message = [error.message, error.additionalDetails]
      .filter((m) => typeof m === 'string' && m !== '')
      .join(': ');
    state.lastError = { message: message || 'the model request failed', ...httpStatusOf(error.codexErrorInfo) };
    if (error.willRetry !== false) return unknownRecord(state, 'ACP agent retries after an error', update);
  }
  const status = isObj(codex.threadStatus) ? codex.threadStatus.type : undefined;
  if ((status === 'systemError' || isObj(error)) && state.lastError && state.failure === undefined) {
    const { message, httpStatus } = state.lastError;
    state.failure = message;
    const out: EventDraft[] = [];
    state.ledger.stopMessage(out);
    out.push(acpErrorDraft(message, httpStatus));
    return out;
  }
  return unknownRecord(state, 'ACP session info', update);
}

/** The HTTP status in codex's `codexErrorInfo` (`{ <kind>: { httpStatusCode } }`), if any. */
function httpStatusOf(info: unknown): { httpStatus?: number } {
  if (!isObj(info)) return {};
  for (const value of Object.values(info)) {
    if (isObj(value) && typeof value.httpStatusCode === 'number') return { httpStatus: value.httpStatusCode };
  }
  return {};
}
