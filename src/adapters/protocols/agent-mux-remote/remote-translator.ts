import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import { agentEventTypes, type EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { isObj, str, unknownRecord } from '../../shared/record-fields.ts';

const known = new Set<string>(agentEventTypes);

/**
 * The other installation prints normalized events already (`agent-mux run --json`): pass them
 * through, re-stamped by this run. Its `run_end` becomes this run's outcome; its costs count here.
 */
export const remoteTranslator: Translator<TranslatorState> = {
  init: ({ debug }) => ({ debug }),
  translate(record: NativeRecord, state: TranslatorState): EventDraft[] {
    if (record.kind !== 'json') return [logDraft('stdout', record.line)];
    const value = record.value;
    if (!isObj(value) || typeof value.type !== 'string' || !known.has(value.type)) {
      return unknownRecord(state, 'not a normalized event', value);
    }
    const { runId: _runId, agent: _agent, timestamp: _timestamp, raw: _raw, ...event } = value;
    if (event.type === 'run_end') {
      const reason = String(event.reason);
      state.sessionId = str(event.sessionId) ?? state.sessionId;
      const message = str(event.message);
      state.outcome =
        reason === 'completed'
          ? { status: 'completed', message, output: event.output }
          : {
              status: 'failed',
              message: `the remote run ended ${reason}${message ? `: ${message}` : ''}`,
              output: event.output,
            };
      return [];
    }
    if (event.type === 'session_start' && typeof event.sessionId === 'string') state.sessionId = event.sessionId;
    return [event as EventDraft];
  },
};
