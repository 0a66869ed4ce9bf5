import type { NativeRecord, Translator, TranslatorState } from '../../../core/adapter/index.ts';
import type { DraftOf, EventDraft } from '../../../core/events/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { translatorFailure } from '../../../core/run/translator-failure.ts';

/**
 * The name under which Codex's shell tool reaches the model (and a run's policy): `exec_command`
 * in Codex 0.169 (unified exec). `command_execution` items are reported under this name.
 */
export const codexShellTool = 'exec_command';
/** The tool behind `file_change` items. */
export const codexPatchTool = 'apply_patch';

export interface CodexTranslatorState extends TranslatorState {
  /** Turns started so far. */
  turns: number;
  /** Text already emitted per open agent_message / reasoning item id (items may repeat in updates). */
  emitted: Map<string, string>;
  /**
   * Items whose start was emitted and that have not completed, by id → what they opened. Maps and
   * sets rather than records keyed by `kind:id`: a fresh id per item would otherwise be a new
   * property name to build and internalize on every record of a long run (issue 18).
   */
  open: Map<string, OpenKind>;
  /** Items already completed (a repeated `item.completed` is ignored). */
  done: Set<string>;
  /** The last agent message: the turn's result. */
  lastMessage?: string;
  /** The last error message classified, so that `turn.failed` repeating it emits nothing new. */
  lastError?: string;
  model?: string;
  resumeSessionId?: string;
  fork: boolean;
}

type OpenKind = 'message' | 'thinking' | 'tool' | 'mcp';

/**
 * What a record that emits nothing returns: one shared empty list rather than a new one per record
 * (most `thread.started` and repeated item records of a long run emit nothing; issue 18). Frozen:
 * callers only read it.
 */
const none = Object.freeze([]) as unknown as EventDraft[];

/**
 * Translates `codex exec --json` (JSONL `ThreadEvent`s: `thread.started`, `turn.started`,
 * `item.started|updated|completed`, `turn.completed`, `turn.failed`, `error`, …).
 * Pure, never throws.
 */
export const codexTranslator: Translator<CodexTranslatorState> = {
  init: ({ debug, request }) => ({
    debug,
    turns: 0,
    emitted: new Map(),
    open: new Map(),
    done: new Set(),
    model: request?.model,
    resumeSessionId: request?.resumeSessionId,
    fork: request?.fork === true && request.resumeSessionId !== undefined,
  }),
  translate(record: NativeRecord, state: CodexTranslatorState): EventDraft[] {
    try {
      if (record.kind === 'text') return textLine(record.line);
      const value = record.value;
      if (!isObject(value)) return unknownRecord(state, 'a JSON line that is not an object', value);
      return translateEvent(value, state);
    } catch (error) {
      return translatorFailure('codex', error);
    }
  },
  stderr(line: string): EventDraft[] {
    return line.trim() === '' ? none : [logDraft('stderr', line)];
  },
  finish(_exit, state: CodexTranslatorState): EventDraft[] {
    // Close whatever the stream left open (a killed run): message and thinking blocks.
    const out: EventDraft[] = [];
    for (const [id, kind] of state.open) {
      if (kind === 'message') out.push({ type: 'message_stop', messageId: id });
      if (kind === 'thinking') out.push({ type: 'thinking_stop', messageId: id });
    }
    state.open.clear();
    return out;
  },
};

function translateEvent(value: Record<string, unknown>, state: CodexTranslatorState): EventDraft[] {
  switch (value.type) {
    case 'thread.started':
      return threadStarted(value, state);
    case 'turn.started':
      state.turns += 1;
      return [{ type: 'turn_start', turn: state.turns }];
    case 'turn.completed':
      state.terminal = true; // issue 12 (terminal events): `codex exec` runs one turn, its end ends the run
      return turnCompleted(value, state);
    case 'turn.failed': {
      state.terminal = true; // issue 12 (terminal events): likewise for a failed turn
      const error = isObject(value.error) ? value.error : {};
      const message = withoutUrl(str(error.message) ?? 'the turn failed');
      state.outcome = { status: 'failed', message };
      const out: EventDraft[] = state.lastError === message ? [] : classifyError(message);
      state.lastError = message;
      out.push({ type: 'turn_end', turn: state.turns || undefined, isError: true, stopReason: 'failed' });
      return out;
    }
    case 'error': {
      const message = withoutUrl(str(value.message) ?? 'unknown error');
      // Retries of a failing request: `Reconnecting... 2/5 (…)`. The final failure follows as its own `error`.
      if (message.startsWith('Reconnecting...')) return [{ type: 'log', source: 'stdout', line: message }];
      state.lastError = message;
      return classifyError(message);
    }
    case 'item.started':
    case 'item.updated':
    case 'item.completed': {
      if (!isObject(value.item)) return malformed(`${value.type} without an item`);
      return translateItem(value.item, value.type === 'item.completed', state);
    }
    default:
      return unknownRecord(state, `unknown codex event ${JSON.stringify(value.type)}`, value);
  }
}

function threadStarted(value: Record<string, unknown>, state: CodexTranslatorState): EventDraft[] {
  const sessionId = str(value.thread_id);
  if (!sessionId) return malformed('thread.started without a thread_id');
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

function turnCompleted(value: Record<string, unknown>, state: CodexTranslatorState): EventDraft[] {
  const out: EventDraft[] = [];
  const cost = usageDraft(value.usage, state.model);
  if (cost) out.push(cost);
  out.push({ type: 'turn_end', turn: state.turns || undefined, stopReason: 'completed', result: state.lastMessage });
  state.outcome = { status: 'completed', output: state.lastMessage };
  return out;
}

function translateItem(item: Record<string, unknown>, completed: boolean, state: CodexTranslatorState): EventDraft[] {
  const id = str(item.id);
  if (!id) return malformed('an item without an id');
  if (state.done.has(id)) return none;
  if (completed) state.done.add(id);
  switch (item.type) {
    case 'agent_message':
      return textItem(id, str(item.text) ?? '', completed, state, 'message');
    case 'reasoning':
      return textItem(id, str(item.text) ?? '', completed, state, 'thinking');
    case 'command_execution':
      return toolItem(state, id, completed, codexShellTool, { command: str(item.command) ?? '' }, () => {
        const status = str(item.status);
        const exit = typeof item.exit_code === 'number' ? item.exit_code : undefined;
        return {
          output: str(item.aggregated_output) ?? '',
          isError: status === 'failed' || status === 'declined' || (exit !== undefined && exit !== 0),
        };
      });
    case 'file_change':
      return toolItem(state, id, completed, codexPatchTool, { changes: item.changes ?? [] }, () => ({
        output: { status: item.status, changes: item.changes ?? [] },
        isError: item.status === 'failed',
      }));
    case 'web_search':
      return toolItem(state, id, completed, 'web_search', { query: str(item.query) ?? '' }, () => ({
        output: item.action ?? null,
        isError: false,
      }));
    case 'collab_tool_call': {
      const tool = str(item.tool) ?? 'collab';
      return toolItem(state, id, completed, tool, { prompt: item.prompt, receivers: item.receiver_thread_ids }, () => ({
        output: item.agents_states ?? null,
        isError: item.status === 'failed',
      }));
    }
    case 'mcp_tool_call':
      return mcpItem(item, id, completed, state);
    case 'todo_list': {
      const items = Array.isArray(item.items) ? item.items.filter(isObject) : [];
      const done = items.filter((t) => t.completed === true).length;
      const lines = items.map((t) => `[${t.completed === true ? 'x' : ' '}] ${str(t.text) ?? ''}`);
      return [{ type: 'progress', summary: `plan ${done}/${items.length}\n${lines.join('\n')}`.trim() }];
    }
    case 'plan':
      return completed ? [{ type: 'progress', summary: str(item.text) ?? '' }] : [];
    case 'error':
      // A non-fatal notice surfaced as an item (unknown model metadata, hook trust bypass, …).
      return completed
        ? [{ type: 'error', code: 'agent_error', message: str(item.message) ?? 'error', recoverable: true }]
        : [];
    default:
      return unknownRecord(state, `unknown codex item type ${JSON.stringify(item.type)}`, item);
  }
}

/** An agent message or a reasoning summary: whole text on completion, suffix deltas if it ever streams. */
function textItem(
  id: string,
  text: string,
  completed: boolean,
  state: CodexTranslatorState,
  kind: 'message' | 'thinking',
): EventDraft[] {
  const out: EventDraft[] = [];
  if (state.open.get(id) !== kind) {
    if (completed && text === '' && !state.emitted.has(id)) return [];
    state.open.set(id, kind);
    out.push(kind === 'message' ? { type: 'message_start', messageId: id } : { type: 'thinking_start', messageId: id });
  }
  const before = state.emitted.get(id) ?? '';
  const delta = text.startsWith(before) ? text.slice(before.length) : text;
  if (delta) {
    out.push(
      kind === 'message'
        ? { type: 'text_delta', delta, messageId: id }
        : { type: 'thinking_delta', delta, messageId: id },
    );
  }
  if (completed) {
    state.open.delete(id);
    state.emitted.delete(id);
    if (kind === 'message') {
      state.lastMessage = text;
      out.push({ type: 'message_stop', messageId: id, text });
    } else {
      out.push({ type: 'thinking_stop', messageId: id, thinking: text });
    }
  } else {
    state.emitted.set(id, text);
  }
  return out;
}

function toolItem(
  state: CodexTranslatorState,
  id: string,
  completed: boolean,
  toolName: string,
  input: unknown,
  result: () => { output: unknown; isError: boolean },
): EventDraft[] {
  const out: EventDraft[] = [];
  if (state.open.get(id) !== 'tool') {
    state.open.set(id, 'tool');
    out.push({ type: 'tool_call_start', toolCallId: id, toolName });
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName, input });
  }
  if (completed) {
    state.open.delete(id);
    const { output, isError } = result();
    out.push({ type: 'tool_result', toolCallId: id, toolName, output, isError });
  }
  return out;
}

function mcpItem(
  item: Record<string, unknown>,
  id: string,
  completed: boolean,
  state: CodexTranslatorState,
): EventDraft[] {
  const server = str(item.server) ?? '';
  const toolName = str(item.tool) ?? '';
  const out: EventDraft[] = [];
  if (state.open.get(id) !== 'mcp') {
    state.open.set(id, 'mcp');
    out.push({ type: 'mcp_tool_call_start', toolCallId: id, server, toolName, input: item.arguments ?? {} });
  }
  if (completed) {
    state.open.delete(id);
    const error = isObject(item.error) ? str(item.error.message) : undefined;
    const result = isObject(item.result) ? item.result : undefined;
    const output = error ?? (result ? (result.structured_content ?? result.content ?? null) : null);
    out.push({
      type: 'mcp_tool_result',
      toolCallId: id,
      server,
      toolName,
      output,
      isError: item.status === 'failed' || error !== undefined,
    });
  }
  return out;
}

/**
 * `turn.completed.usage`: `input_tokens` (cached ones included, as OpenAI counts them),
 * `cached_input_tokens`, `cache_write_input_tokens`, `output_tokens`, `reasoning_output_tokens`.
 * They are the thread's running totals (a resumed thread reports the earlier turns too).
 */
export function usageDraft(usage: unknown, model?: string): DraftOf<'cost'> | undefined {
  if (!isObject(usage)) return undefined;
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

/** The kind {@link classifyError} sorts a message into, with a rate limit's retry delay. */
type ErrorKind = { kind: 'auth' | 'rate' | 'context' | 'other'; retryAfterMs?: number };

/**
 * Kinds of messages already classified: a long run repeats the same few error messages, and the
 * classification (several case-insensitive regular expressions) is a pure function of the text.
 * Bounded: cleared when it grows past {@link kindCacheLimit} entries.
 */
const kindCache = new Map<string, ErrorKind>();
const kindCacheLimit = 256;

/** Sorts an error message Codex printed into the normalized error kinds. */
export function classifyError(message: string): EventDraft[] {
  let kind = kindCache.get(message);
  if (kind === undefined) {
    kind = errorKind(message);
    if (kindCache.size >= kindCacheLimit) kindCache.clear();
    kindCache.set(message, kind);
  }
  switch (kind.kind) {
    case 'auth':
      return [
        {
          type: 'auth_error',
          message,
          guidance: 'Set OPENAI_API_KEY (or CODEX_API_KEY), or run `codex login`.',
        },
      ];
    case 'rate':
      return [{ type: 'rate_limit_error', message, retryAfterMs: kind.retryAfterMs }];
    case 'context':
      return [{ type: 'context_exceeded', message }];
    default:
      return [{ type: 'error', code: 'agent_error', message, recoverable: false }];
  }
}

function errorKind(message: string): ErrorKind {
  if (/\b401\b|unauthori[sz]ed|invalid[_ ]api[_ ]key|incorrect api key|not logged in|authentication/i.test(message)) {
    return { kind: 'auth' };
  }
  if (/\b429\b|rate.?limit|too many requests|usage limit|quota/i.test(message)) {
    return { kind: 'rate', retryAfterMs: retryAfterMs(message) };
  }
  if (/context.?window|context_length_exceeded|maximum context length|too many tokens|ran out of room/i.test(message)) {
    return { kind: 'context' };
  }
  return { kind: 'other' };
}

function retryAfterMs(message: string): number | undefined {
  const match =
    /(?:try again|retry) (?:in|after) (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec(?:ond)?s?|m|min(?:ute)?s?)\b/i.exec(
      message,
    );
  if (!match?.[1]) return undefined;
  const n = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit.startsWith('ms') || unit.startsWith('milli')) return Math.round(n);
  if (unit.startsWith('m')) return Math.round(n * 60_000);
  return Math.round(n * 1000);
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

/**
 * Codex ends HTTP failures with `, url: <endpoint>` (`unexpected status 401 Unauthorized: …, url:
 * https://api.openai.com/v1/responses`). The endpoint is dropped from the normalized message: it
 * says nothing the user acts on and varies with the host (the raw record keeps it in debug mode).
 */
function withoutUrl(message: string): string {
  // What `message.replace(/,\s*url:\s*\S+?(?=\)?\s*$)/, '')` does, without a regular expression
  // scanned over every error message of a long run (issue 18).
  let from = message.indexOf('url:');
  if (from === -1) return message;
  // The URL runs from after `url:` to the last non-blank character; only blanks may follow it.
  let end = message.length;
  while (end > 0 && isBlank(message.charCodeAt(end - 1))) end--;
  for (; from !== -1; from = message.indexOf('url:', from + 1)) {
    let comma = from;
    while (comma > 0 && isBlank(message.charCodeAt(comma - 1))) comma--;
    if (comma === 0 || message.charCodeAt(comma - 1) !== 0x2c /* , */) continue;
    let url = from + 4;
    while (url < end && isBlank(message.charCodeAt(url))) url++;
    // The URL is one non-blank run up to `end`, one character at least, a closing `)` excepted.
    let blank = false;
    for (let i = url; i < end; i++) if (isBlank(message.charCodeAt(i))) blank = true;
    if (blank || url >= end) continue;
    const stop = message.charCodeAt(end - 1) === 0x29 /* ) */ && end - 1 > url ? end - 1 : end;
    return message.slice(0, comma - 1) + message.slice(stop);
  }
  return message;
}

/** What `\s` matches. */
function isBlank(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;

function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}

function unknownRecord(state: CodexTranslatorState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : none;
}
