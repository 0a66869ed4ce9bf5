import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { countOf, unknownRecord as debug, isObj as isObject, malformed } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { type AcpRpcError, decodeAcpMessage } from './acp-message.ts';
import { acpErrorDraft } from './acp-provider-errors.ts';
import type { AcpTranslatorState } from './acp-translator-state.ts';
import { acpUpdateDrafts, closeOpen } from './acp-update-drafts.ts';

/**
 * Translates what an ACP agent writes on stdout (JSON-RPC 2.0, one message a line) into events.
 * Pure: the controller answers the agent's requests; this sees the same lines and reports them.
 *
 * - `session/update` notifications: see `acpUpdateDrafts`. While a `session/load` replays the
 *   conversation (updates before its response), the history is not reported again (debug only).
 * - The `session/new` response gives `session_start`; the `session/load` response `session_resume`.
 * - The `session/prompt` response (`stopReason`) is terminal: the run ends on it.
 * - An error response (to initialize, session/new|load or session/prompt: the only requests the
 *   client sends) is terminal and failed; 401/403-like errors are `auth_error`, 429-like `rate_limit_error`.
 * - The agent's requests (`session/request_permission`, `fs/*`) are answered by the controller.
 */
export const acpTranslator: Translator<AcpTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    responses: 0,
    // ACP reports no tool durations; the ledger keeps the open message, thought and tool calls.
    ledger: new StreamLedger(clock, { toolDurations: false, emptyDeltas: true }),
    tools: new Map(),
    ...(request?.resumeSessionId ? { resumeSessionId: request.resumeSessionId } : {}),
  }),
  translate(record: NativeRecord, state: AcpTranslatorState): EventDraft[] {
    if (record.kind !== 'json') return [logDraft('stdout', record.line)];
    const message = decodeAcpMessage(record.value);
    if (!message) {
      return malformed('a line that is not a JSON-RPC 2.0 message');
    }
    switch (message.kind) {
      case 'notification':
        if (message.method !== 'session/update')
          return debug(state, `ACP notification ${message.method}`, message.params);
        if (!isObject(message.params)) return malformed('session/update without params');
        if (replaying(state)) return debug(state, 'ACP history replayed by session/load', message.params);
        return acpUpdateDrafts(message.params.update, state);
      case 'request':
        return debug(state, `ACP request ${message.method}`, message.params);
      case 'result':
        state.responses++;
        return resultDrafts(message.result, state);
      case 'error':
        state.responses++;
        return errorDrafts(message.error, state);
    }
  },
  finish(_exit, state) {
    return closeOpen(state);
  },
};

function replaying(state: AcpTranslatorState): boolean {
  return state.resumeSessionId !== undefined && state.responses < 2;
}

function resultDrafts(result: unknown, state: AcpTranslatorState): EventDraft[] {
  if (!isObject(result)) return debug(state, 'ACP response', result);
  if (typeof result.stopReason === 'string') return promptEnd(result, result.stopReason, state);
  if (typeof result.sessionId === 'string' && result.sessionId !== '' && !state.sessionId) {
    state.sessionId = result.sessionId;
    state.model = sessionModel(result);
    return [{ type: 'session_start', sessionId: result.sessionId, ...(state.model ? { model: state.model } : {}) }];
  }
  if (state.resumeSessionId && state.responses === 2 && !state.sessionId && !('protocolVersion' in result)) {
    state.sessionId = state.resumeSessionId;
    state.model = sessionModel(result);
    return [{ type: 'session_resume', sessionId: state.resumeSessionId, previousSessionId: state.resumeSessionId }];
  }
  return debug(state, 'ACP response', result);
}

function promptEnd(result: Record<string, unknown>, stopReason: string, state: AcpTranslatorState): EventDraft[] {
  const out: EventDraft[] = [...closeOpen(state)];
  const cost = usageCost(result.usage ?? quotaUsage(result._meta) ?? state.chunkUsage, state);
  if (cost) out.push(cost);
  const failed = stopReason === 'refusal' || stopReason === 'cancelled' || state.failure !== undefined;
  out.push({ type: 'turn_end', stopReason, ...(failed ? { isError: true } : {}) });
  state.outcome = failed
    ? {
        status: 'failed',
        message:
          state.failure ?? (stopReason === 'refusal' ? 'the agent refused to continue' : 'the turn was cancelled'),
      }
    : { status: 'completed', message: stopReason === 'end_turn' ? undefined : `the turn ended: ${stopReason}` };
  state.terminal = true;
  // The failure was this turn's: a later prompt on the same connection (a replayed stream of several
  // turns) reports its own errors.
  state.failure = undefined;
  state.lastError = undefined;
  return out;
}

function errorDrafts(error: AcpRpcError, state: AcpTranslatorState): EventDraft[] {
  const out: EventDraft[] = [...closeOpen(state)];
  const detail = typeof error.data === 'string' ? error.data : isObject(error.data) ? JSON.stringify(error.data) : '';
  const text = `${error.message}${detail && !error.message.includes(detail) ? ` (${detail})` : ''}`;
  // -32000: ACP's "authentication required".
  out.push(error.code === -32000 ? { type: 'auth_error', message: text } : acpErrorDraft(text));
  state.outcome = { status: 'failed', message: text };
  state.terminal = true;
  return out;
}

/** Token usage of the turn (`usage` of the prompt response, where the agent sends one). */
function usageCost(usage: unknown, state: AcpTranslatorState): DraftOf<'cost'> | undefined {
  if (!isObject(usage)) return undefined;
  const inputTokens = countOf(usage.inputTokens);
  const outputTokens = countOf(usage.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const cacheRead = countOf(usage.cachedReadTokens);
  const cacheWrite = countOf(usage.cachedWriteTokens);
  const thinking = countOf(usage.thoughtTokens);
  return {
    type: 'cost',
    inputTokens: inputTokens ?? 0,
    outputTokens: outputTokens ?? 0,
    ...(cacheRead === undefined ? {} : { cacheReadTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(thinking === undefined ? {} : { thinkingTokens: thinking }),
    // The agent's own USD, when it reported one, stays the price of the run's tokens.
    ...(state.usd === undefined ? {} : { usd: state.usd, cumulative: true }),
    ...(state.model ? { model: state.model } : {}),
  };
}

/**
 * Gemini CLI's token counts: no `usage`, but `_meta.quota.token_count` (`input_tokens`,
 * `output_tokens`) in the prompt response, as the ACP `usage` shape.
 */
function quotaUsage(meta: unknown): Record<string, unknown> | undefined {
  const tokens = isObject(meta) && isObject(meta.quota) ? meta.quota.token_count : undefined;
  if (!isObject(tokens)) return undefined;
  return { inputTokens: tokens.input_tokens, outputTokens: tokens.output_tokens };
}

/**
 * The session's model, from the `session/new` or `session/load` response: the `model` config
 * option's value (OpenCode, Kilo, Codex `gpt-5.5`, omp), else the unstable `models.currentModelId`
 * (Gemini `gemini-2.5-flash`; Codex's says `gpt-5.5[medium]`). Cost events carry it, so that the
 * run's tokens are priced by the model used where the price list knows it (OpenCode and Kilo report
 * no USD over ACP), and by the adapter's cost model otherwise.
 */
function sessionModel(result: Record<string, unknown>): string | undefined {
  if (Array.isArray(result.configOptions)) {
    for (const option of result.configOptions) {
      if (
        isObject(option) &&
        option.category === 'model' &&
        typeof option.currentValue === 'string' &&
        option.currentValue
      )
        return option.currentValue;
    }
  }
  const models = result.models;
  return isObject(models) && typeof models.currentModelId === 'string' && models.currentModelId
    ? models.currentModelId
    : undefined;
}
