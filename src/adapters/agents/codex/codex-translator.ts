import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { RecentIds } from '../../shared/recent-ids.ts';
import { count, isObj, malformed, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { type CodexAppServerState, codexAppServerEvents } from './codex-app-server-events.ts';
import { readCodexError } from './codex-error-table.ts';
import { type CodexItemState, none, translateItem } from './codex-items.ts';
import { type CodexRecord, codexMalformed, codexRecord } from './codex-record.ts';

export { codexPatchTool, codexShellTool } from './codex-items.ts';

export interface CodexTranslatorState extends TranslatorState, CodexItemState {
  /** Turns started so far. */
  turns: number;
  /** The last error message classified, so that `turn.failed` repeating it emits nothing new. */
  lastError?: string;
  model?: string;
  resumeSessionId?: string;
  fork: boolean;
  /** What reading `codex app-server`'s messages keeps (codex-app-server-events.ts). */
  app: CodexAppServerState;
}

/**
 * Translates `codex app-server` (JSON-RPC, v2: what the adapter runs) and `codex exec --json` (JSONL `ThreadEvent`s: `thread.started`, `turn.started`,
 * `item.started|updated|completed`, `turn.completed`, `turn.failed`, `error`, …; items in
 * codex-items.ts, errors by codex-error-table.ts). Events are checked at the edge (codex-record.ts):
 * a known type missing what it cannot do without is a recoverable `malformed_record` error. The
 * app-server's messages (no `type`; a `method` or an `id`) are read as the exec events they stand
 * for (codex-app-server-events.ts), and checked and translated as those.
 */
export const codexTranslator: Translator<CodexTranslatorState> = {
  init: ({ debug, request, clock }) => ({
    debug,
    turns: 0,
    ledger: new StreamLedger(clock, { toolDurations: false }),
    mcp: new Set(),
    done: new RecentIds(),
    model: request?.model,
    resumeSessionId: request?.resumeSessionId,
    fork: request?.fork === true && request.resumeSessionId !== undefined,
    app: { streamed: new Map() },
  }),
  translate(record: NativeRecord, state: CodexTranslatorState): EventDraft[] {
    if (record.kind === 'text') return textLine(record.line);
    const value = record.value;
    if (!isObj(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
    if (value.type === undefined && (value.method !== undefined || value.id !== undefined)) {
      return appServerMessage(value, state);
    }
    // Checked at the edge (codex-record.ts): by hand as the schema states it (zod's copy of each
    // record cost a tenth of the time), the schema deciding on what the hand check refuses.
    const native = codexRecord(value);
    if (native === 'unknown') return unknownRecord(state, `unknown codex event ${JSON.stringify(value.type)}`, value);
    if (native === 'malformed') return malformed(codexMalformed[value.type as CodexRecord['type']]);
    return translateEvent(native, state);
  },
  stderr(line: string): EventDraft[] {
    return line.trim() === '' ? none : [logDraft('stderr', line)];
  },
  finish(_exit, state: CodexTranslatorState): EventDraft[] {
    // Close whatever the stream left open (a killed run): reasoning and message, without text.
    const out: EventDraft[] = [];
    state.ledger.stopThinking(out, null);
    state.ledger.stopMessage(out, null);
    return out;
  },
};

/** One `codex app-server` message, through the exec events it stands for. */
function appServerMessage(value: Obj, state: CodexTranslatorState): EventDraft[] {
  const mapped = codexAppServerEvents(value, state.app);
  if (mapped.kind === 'ignored') return none;
  if (mapped.kind === 'unknown') return unknownRecord(state, mapped.what, value);
  const out: EventDraft[] = [];
  for (const event of mapped.events) {
    const native = codexRecord(event);
    if (native === 'unknown') out.push(...unknownRecord(state, 'unknown codex event', event));
    else if (native === 'malformed') out.push(...malformed(codexMalformed[event.type as CodexRecord['type']]));
    else out.push(...translateEvent(native, state));
  }
  return out;
}

function translateEvent(native: CodexRecord, state: CodexTranslatorState): EventDraft[] {
  switch (native.type) {
    case 'item.completed':
    case 'item.started':
    case 'item.updated':
      return translateItem(native.item, native.type === 'item.completed', state);
    case 'thread.started':
      return threadStarted(native.thread_id, state);
    case 'turn.started':
      state.turns += 1;
      return [{ type: 'turn_start', turn: state.turns }];
    case 'turn.completed':
      state.terminal = true; // issue 12 (terminal events): `codex exec` runs one turn, its end ends the run
      return turnCompleted(native, state);
    case 'turn.failed': {
      state.terminal = true; // issue 12 (terminal events): likewise for a failed turn
      const error = isObj(native.error) ? native.error : {};
      const { message, draft } = readCodexError(str(error.message) ?? 'the turn failed');
      state.outcome = { status: 'failed', message };
      const out: EventDraft[] = state.lastError === message ? [] : [{ ...draft }];
      state.lastError = message;
      out.push({ type: 'turn_end', turn: state.turns || undefined, isError: true, stopReason: 'failed' });
      return out;
    }
    case 'error': {
      const { message, draft } = readCodexError(str(native.message) ?? 'unknown error');
      // Retries of a failing request: `Reconnecting... 2/5 (…)`. The final failure follows as its own `error`.
      if (message.startsWith('Reconnecting...')) return [{ type: 'log', source: 'stdout', line: message }];
      state.lastError = message;
      return [{ ...draft }];
    }
    default: {
      const never: never = native;
      return unknownRecord(state, 'unknown codex event', never);
    }
  }
}

function threadStarted(sessionId: string, state: CodexTranslatorState): EventDraft[] {
  const first = state.sessionId === undefined;
  state.sessionId = sessionId;
  if (!first) return none;
  if (state.resumeSessionId && state.fork && sessionId !== state.resumeSessionId) {
    return [{ type: 'session_fork', sessionId, forkedFrom: state.resumeSessionId }];
  }
  if (state.resumeSessionId && sessionId === state.resumeSessionId) {
    return [{ type: 'session_resume', sessionId, previousSessionId: state.resumeSessionId }];
  }
  return [{ type: 'session_start', sessionId, model: state.model }];
}

function turnCompleted(value: Obj, state: CodexTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const cost = usageDraft(value.usage, state.model);
  if (cost) out.push(cost);
  out.push({ type: 'turn_end', turn: state.turns || undefined, stopReason: 'completed', result: state.lastMessage });
  state.outcome = { status: 'completed', output: state.lastMessage };
  return out;
}

/**
 * `turn.completed.usage`: `input_tokens` (cached ones included, as OpenAI counts them),
 * `cached_input_tokens`, `cache_write_input_tokens`, `output_tokens`, `reasoning_output_tokens`.
 * They are the thread's running totals (a resumed thread reports the earlier turns too).
 */
export function usageDraft(usage: unknown, model?: string): DraftOf<'cost'> | undefined {
  if (!isObj(usage)) return undefined;
  const input = count(usage.input_tokens);
  const cacheRead = count(usage.cached_input_tokens);
  const cacheWrite = count(usage.cache_write_input_tokens);
  const thinking = usage.reasoning_output_tokens === undefined ? undefined : count(usage.reasoning_output_tokens);
  return {
    type: 'cost',
    inputTokens: Math.max(0, input - cacheRead - cacheWrite),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    thinkingTokens: thinking,
    model,
    cumulative: true,
  };
}

/**
 * A plain line where JSON was expected. `codex exec --json` prints only JSON on stdout (its notices
 * go to stderr), so such a line is foreign output: kept as a `log` line, never a failure. (Not text
 * deltas: the shared contract requires garbage between records to leave the message stream unchanged.)
 */
function textLine(line: string): EventDraft[] {
  if (line.trim() === '') return none;
  return [logDraft('stdout', line)];
}
