import type { NativeRecord, Translator } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import { isObj, malformed, str, unknownRecord } from '../../shared/record-fields.ts';
import { StreamLedger } from '../../shared/stream-ledger.ts';
import { closePiMessage, piMessageEnd, piMessageStart, piMessageUpdate, piPlainText } from './pi-messages.ts';
import { type PiRecord, type PiRecordOf, piMalformed, piRecord } from './pi-record.ts';
import { PI_PROMPT_REQUEST, PI_SESSION_REQUEST } from './pi-rpc.ts';
import { PI_IDLE_PROBE, piAgentEnded, piContinuationEnded, piIdleAnswer, piWentOn } from './pi-run-end.ts';
import type { PiTranslatorState } from './pi-state.ts';

export { classifyError } from './pi-error.ts';
export type { PiTranslatorState } from './pi-state.ts';

export interface PiTranslatorOptions {
  /** Record types the CLI prints that carry nothing for the normalized stream (silently dropped). */
  ignoredTypes?: readonly string[];
  /** Splits an MCP tool's registered name into server and tool, or undefined when it is no MCP tool. */
  mcpToolName?(name: string): { server: string; tool: string } | undefined;
}

/** `mcp__<server>_<tool>` (omp's and Claude-style naming); the server part stops at the first `_`. */
export function defaultMcpToolName(name: string): { server: string; tool: string } | undefined {
  const match = /^mcp__([^_]+)_{1,2}(.+)$/.exec(name);
  return match ? { server: match[1] as string, tool: match[2] as string } : undefined;
}

const QUIET_TYPES = [
  'agent_start',
  'tool_execution_update',
  'queue_update',
  'compaction_start',
  'compaction_end',
  'auto_retry_start',
  'auto_retry_end',
  // RPC mode: the queue of messages given mid-run, and extensions' UI (dialogs answered by pi-rpc.ts).
  'extension_ui_request',
];

/** Records by which pi says it goes on after an `agent_end` (pi-run-end.ts). */
const GOING_ON = new Set(['agent_start', 'auto_retry_start', 'compaction_start', 'auto_compaction_start']);

/**
 * Translates `pi --mode json` (and oh-my-pi's `omp --mode json`, the same format): one JSON object
 * per line, the session header `{"type":"session","id",…}` first, then the agent's events
 * (`agent_start`, `turn_start`, `message_start`/`message_update`/`message_end`,
 * `tool_execution_start`/`_update`/`_end`, `turn_end`, `agent_end`, `auto_retry_*`, `compaction_*`).
 * Recorded from pi 0.73.1 and omp 18.2.3: test/fixtures/streams/pi/, test/fixtures/streams/omp/.
 * Records are checked at the edge (pi-record.ts); messages, thinking and tool calls are opened and
 * closed by a {@link StreamLedger}, a tool's duration counted from its execution start.
 */
export function createPiTranslator(options: PiTranslatorOptions = {}): Translator<PiTranslatorState> {
  const ignored = new Set([...QUIET_TYPES, ...(options.ignoredTypes ?? [])]);
  const mcpName = options.mcpToolName ?? defaultMcpToolName;

  function toolStart(value: PiRecordOf<'tool_execution_start'>, state: PiTranslatorState): EventDraft[] {
    const { toolCallId: id, toolName: name } = value;
    const out: EventDraft[] = [];
    const input = value.args ?? {};
    state.ledger.readyTool(out, id, input, name);
    state.ledger.runTool(id);
    return out;
  }

  function toolEnd(value: PiRecordOf<'tool_execution_end'>, state: PiTranslatorState): EventDraft[] {
    const { toolCallId: id, toolName: name } = value;
    const out: EventDraft[] = [];
    state.ledger.readyTool(out, id, value.args ?? {}, name);
    const output = toolOutput(value.result);
    const isError = value.isError === true;
    state.ledger.toolResult(out, id, output, isError, name);
    return out;
  }

  function ended(state: PiTranslatorState): EventDraft[] {
    const out: EventDraft[] = [];
    if (state.ledger.messageOpen) closePiMessage(state, out);
    return out;
  }

  return {
    init: ({ debug, request, clock = Date.now }) => ({
      debug,
      request,
      ledger: new StreamLedger(clock, { mcpToolName: mcpName }),
      turn: 0,
      messageCount: 0,
      toolIndex: new Map(),
    }),
    translate(record: NativeRecord, state: PiTranslatorState): EventDraft[] {
      if (record.kind === 'text') return piPlainText(record.line, state);
      const value = record.value;
      if (!isObj(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
      const native = piRecord(value);
      if (native === 'unknown') {
        const type = str(value.type);
        if (type === 'compaction_end') piContinuationEnded(value, state);
        if (type !== undefined && GOING_ON.has(type)) piWentOn(state);
        if (type && ignored.has(type)) return unknownRecord(state, type, value);
        return unknownRecord(state, `unknown record type ${JSON.stringify(value.type)}`, value);
      }
      if (native === 'malformed') return malformed(piMalformed[value.type as PiRecord['type']]);
      switch (native.type) {
        case 'session':
          return session(native, state);
        case 'turn_start':
          piWentOn(state);
          state.turn += 1;
          return [{ type: 'turn_start', turn: state.turn }];
        case 'message_start':
          return piMessageStart(native.message, state);
        case 'message_update':
          return piMessageUpdate(native, state);
        case 'message_end':
          return piMessageEnd(native.message, state);
        case 'tool_execution_start':
          return toolStart(native, state);
        case 'tool_execution_end':
          return toolEnd(native, state);
        case 'turn_end': {
          const out = ended(state);
          const stopReason = isObj(native.message) ? str(native.message.stopReason) : undefined;
          out.push({
            type: 'turn_end',
            turn: state.turn || undefined,
            stopReason,
            isError: stopReason === 'error' || stopReason === 'aborted' ? true : undefined,
          });
          return out;
        }
        case 'agent_end':
          state.outcome = state.lastFailure
            ? { status: 'failed', message: state.lastFailure }
            : { status: 'completed', output: state.lastText };
          // Over once pi is found idle (pi-run-end.ts), unless a message given mid-run waits (the
          // core decides that: agent-input.ts).
          piAgentEnded(state);
          return ended(state);
        case 'response':
          return response(native, state);
        case 'auto_retry_end':
          if (native.success === false) {
            const message = str(native.finalError) ?? state.lastFailure ?? 'retries exhausted';
            state.outcome = { status: 'failed', message };
          }
          piContinuationEnded(native, state);
          return unknownRecord(state, 'auto_retry_end', native);
        default: {
          const never: never = native;
          return unknownRecord(state, 'unknown record', never);
        }
      }
    },
    finish(_exit, state) {
      const out = ended(state);
      state.ledger.finish(out);
      return out;
    },
  };
}

function session(value: PiRecordOf<'session'>, state: PiTranslatorState): EventDraft[] {
  const id = value.id;
  state.sessionId = id;
  const resumeId = state.request?.resumeSessionId;
  const parent = str(value.parentSession);
  if (parent !== undefined || (resumeId && state.request?.fork)) {
    return [{ type: 'session_fork', sessionId: id, forkedFrom: resumeId ?? sessionIdFromPath(parent ?? '') }];
  }
  if (resumeId && (id === resumeId || id.startsWith(resumeId) || resumeId.endsWith(`${id}.jsonl`))) {
    return [{ type: 'session_resume', sessionId: id, previousSessionId: resumeId === id ? undefined : resumeId }];
  }
  return [{ type: 'session_start', sessionId: id, cwd: str(value.cwd) }];
}

/**
 * RPC mode's answer to a command: to the opening `get_session_stats`, the session (as `--mode json`'s
 * header says it); a refused prompt fails the run, which then has nothing more to say. The rest
 * (accepted commands) carries nothing for the stream.
 */
function response(value: PiRecordOf<'response'>, state: PiTranslatorState): EventDraft[] {
  if (value.id === PI_IDLE_PROBE) {
    piIdleAnswer(value.data, state);
    return [];
  }
  if (value.id === PI_SESSION_REQUEST && value.success && isObj(value.data)) {
    const id = str(value.data.sessionId);
    if (id) return session({ type: 'session', id, cwd: state.request?.cwd }, state);
  }
  if (value.success || value.command !== 'prompt') return unknownRecord(state, 'response', value);
  const message = str(value.error) ?? 'pi refused the prompt';
  if (value.id !== PI_PROMPT_REQUEST) {
    return [
      {
        type: 'error',
        code: 'agent_error',
        message: `pi refused a message given mid-run: ${message}`,
        recoverable: true,
      },
    ];
  }
  state.outcome = { status: 'failed', message };
  state.terminal = true;
  return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
}

/** A tool result's `content` blocks: the text joined, else the raw result. */
function toolOutput(result: unknown): unknown {
  if (!isObj(result) || !Array.isArray(result.content)) return result ?? null;
  const texts = result.content.filter(
    (b): b is { text: string } => isObj(b) && b.type === 'text' && typeof b.text === 'string',
  );
  if (texts.length === result.content.length) return texts.map((b) => b.text).join('');
  return result.content;
}

/** `<dir>/2026-…Z_<uuid>.jsonl` → `<uuid>`. */
export function sessionIdFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  const match = /_([0-9a-f-]{8,})\.jsonl$/i.exec(base);
  return match ? (match[1] as string) : base.replace(/\.jsonl$/, '');
}

/** pi's translator. */
export const piTranslator: Translator<PiTranslatorState> = createPiTranslator();
