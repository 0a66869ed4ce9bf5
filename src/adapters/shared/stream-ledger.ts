import type { EventDraft } from '../../core/events/index.ts';

/** Options of a {@link StreamLedger}; each default keeps the plain behaviour. */
export interface StreamLedgerOptions {
  /** `tool_result` carries `durationMs` from the clock; default true (false: the agent gives none). */
  toolDurations?: boolean;
  /**
   * The MCP server and tool a tool name stands for, when it names one (`mcp__<server>__<tool>`, …):
   * such a call also gets `mcp_tool_call_start` after its `tool_call_ready`, and `mcp_tool_result`
   * after its `tool_result`.
   */
  mcpToolName?: (name: string) => { server: string; tool: string } | undefined;
  /**
   * Empty deltas are streamed as the agent sent them (opening their message or thinking), and a
   * stop carries its text even when empty; default false (empty deltas are dropped).
   */
  emptyDeltas?: boolean;
  /**
   * The longest message text kept: past it the text is no longer kept and the message's stop
   * carries none (a program's output may be endless); default unlimited.
   */
  maxTextChars?: number;
}

interface OpenMessage {
  id: string | undefined;
  text: string;
  /** The text outgrew `maxTextChars`: it is no longer kept. */
  overflow: boolean;
}

interface OpenTool {
  name: string;
  /** Input JSON streamed so far (`tool_input_delta`). */
  json: string;
  ready: boolean;
  startedAt: number;
}

/**
 * The open/close bookkeeping every translator needs, in one place: which message, thinking block
 * and tool calls are open. It keeps the event contract's invariants by construction: text only
 * inside a message (one is opened when needed), a message closed before the next opens, thinking
 * closed before its message, a tool call started before its input, ready before its result, and at
 * `finish` everything still open closed and every started tool call made ready.
 *
 * Methods push drafts onto the `out` array they are given (translators build one array a record).
 */
export class StreamLedger {
  readonly #clock: () => number;
  #message: OpenMessage | undefined;
  #thinking: { id: string | undefined; text: string } | undefined;
  readonly #tools = new Map<string, OpenTool>();
  /** Started calls not ready yet: what `finish` closes, however many ready calls never got a result. */
  readonly #unready = new Set<string>();
  readonly #durations: boolean;
  readonly #mcpToolName: StreamLedgerOptions['mcpToolName'];
  readonly #emptyDeltas: boolean;
  readonly #maxText: number;

  constructor(clock: () => number = Date.now, options: StreamLedgerOptions = {}) {
    this.#clock = clock;
    this.#durations = options.toolDurations ?? true;
    this.#mcpToolName = options.mcpToolName;
    this.#emptyDeltas = options.emptyDeltas ?? false;
    this.#maxText = options.maxTextChars ?? Number.POSITIVE_INFINITY;
  }

  get messageOpen(): boolean {
    return this.#message !== undefined;
  }

  /** The open message's id, if it has one. */
  get messageId(): string | undefined {
    return this.#message?.id;
  }

  /** The text of the open message so far. */
  get messageText(): string {
    return this.#message?.text ?? '';
  }

  get thinkingOpen(): boolean {
    return this.#thinking !== undefined;
  }

  /** The text of the open thinking block so far. */
  get thinkingText(): string {
    return this.#thinking?.text ?? '';
  }

  /** Opens a message; a different open message is closed first. The same id again changes nothing. */
  startMessage(out: EventDraft[], id?: string, model?: string): void {
    if (this.#message) {
      if (id === undefined || this.#message.id === id) return;
      this.stopMessage(out);
    }
    this.#message = { id, text: '', overflow: false };
    out.push(
      model === undefined ? { type: 'message_start', messageId: id } : { type: 'message_start', messageId: id, model },
    );
  }

  /** A piece of the answer; opens a message (closing one with another id) when needed. */
  text(out: EventDraft[], delta: string, id?: string): void {
    const message = this.#message;
    // The common case kept small (it runs for every piece of text): more text for the open message.
    if (message === undefined || (id !== undefined && message.id !== id) || delta === '' || this.#thinking) {
      this.#textOpening(out, delta, id);
      return;
    }
    this.#append(message, delta);
    out.push({ type: 'text_delta', delta, messageId: message.id });
  }

  /** {@link text} when it opens a message, closes thinking first, or is given empty text. */
  #textOpening(out: EventDraft[], delta: string, id?: string): void {
    if (delta === '' && !this.#emptyDeltas) return;
    if (!this.#message || (id !== undefined && this.#message.id !== id)) this.startMessage(out, id);
    const message = this.#message as OpenMessage;
    if (this.#thinking) this.stopThinking(out);
    this.#append(message, delta);
    out.push({ type: 'text_delta', delta, messageId: message.id });
  }

  #append(message: OpenMessage, delta: string): void {
    if (message.overflow) return;
    message.text += delta;
    if (message.text.length > this.#maxText) {
      message.overflow = true;
      message.text = '';
    }
  }

  /**
   * Closes the open message (and its thinking). `text` is the whole text when the agent said it;
   * else what was streamed, when anything was; `null`: the stop carries no text.
   */
  stopMessage(out: EventDraft[], text?: string | null): void {
    this.stopThinking(out);
    const message = this.#message;
    if (!message) return;
    this.#message = undefined;
    const streamed = message.overflow || (message.text === '' && !this.#emptyDeltas) ? undefined : message.text;
    const whole = text === null ? undefined : (text ?? streamed);
    out.push(
      whole === undefined
        ? { type: 'message_stop', messageId: message.id }
        : { type: 'message_stop', messageId: message.id, text: whole },
    );
  }

  /**
   * Opens a thinking block (inside the open message, or none). `id`: the block's own message id,
   * for thinking outside a message; an open block of another id is closed first.
   */
  startThinking(out: EventDraft[], id?: string): void {
    if (this.#thinking) {
      if (id === undefined || this.#thinking.id === id) return;
      this.stopThinking(out);
    }
    this.#thinking = { id: id ?? this.#message?.id, text: '' };
    out.push({ type: 'thinking_start', messageId: this.#thinking.id });
  }

  /** A piece of thinking; opens a block when needed (`id` as for {@link startThinking}). */
  thinking(out: EventDraft[], delta: string, id?: string): void {
    if (delta === '' && !this.#emptyDeltas) return;
    this.startThinking(out, id);
    const open = this.#thinking as { id: string | undefined; text: string };
    open.text += delta;
    out.push({ type: 'thinking_delta', delta, messageId: open.id });
  }

  /**
   * Closes the thinking block; `thinking` is its whole text when the agent said it, else what was
   * streamed; `null`: the stop carries no text.
   */
  stopThinking(out: EventDraft[], thinking?: string | null): void {
    const open = this.#thinking;
    if (!open) return;
    this.#thinking = undefined;
    const whole =
      thinking === null ? undefined : (thinking ?? (open.text === '' && !this.#emptyDeltas ? undefined : open.text));
    out.push(
      whole === undefined
        ? { type: 'thinking_stop', messageId: open.id }
        : { type: 'thinking_stop', messageId: open.id, thinking: whole },
    );
  }

  /** True while the tool call is started and has no result yet. */
  hasTool(id: string): boolean {
    return this.#tools.has(id);
  }

  toolName(id: string): string | undefined {
    return this.#tools.get(id)?.name;
  }

  /** Starts a tool call; a call already started is left as it is. */
  startTool(out: EventDraft[], id: string, name: string): void {
    if (this.#tools.has(id)) return;
    this.#tools.set(id, { name, json: '', ready: false, startedAt: this.#clock() });
    this.#unready.add(id);
    out.push({ type: 'tool_call_start', toolCallId: id, toolName: name });
  }

  /** The call starts running now (the agent executes it): its duration counts from here. */
  runTool(id: string): void {
    const tool = this.#tools.get(id);
    if (tool) tool.startedAt = this.#clock();
  }

  /** A piece of a started call's input JSON; ignored for a call not started or already ready. */
  toolInput(out: EventDraft[], id: string, delta: string): void {
    const tool = this.#tools.get(id);
    if (!tool || tool.ready || delta === '') return;
    tool.json += delta;
    out.push({ type: 'tool_input_delta', toolCallId: id, delta });
  }

  /**
   * The call's input is complete: `input` when the agent gave it whole, else the streamed JSON
   * parsed (`{}` when it does not parse). Starts the call first when it was not (`name` needed).
   */
  readyTool(out: EventDraft[], id: string, input?: unknown, name?: string): void {
    if (!this.#tools.has(id)) this.startTool(out, id, name ?? 'unknown');
    const tool = this.#tools.get(id) as OpenTool;
    if (tool.ready) return;
    tool.ready = true;
    this.#unready.delete(id);
    const whole = input ?? parseJson(tool.json);
    out.push({ type: 'tool_call_ready', toolCallId: id, toolName: tool.name, input: whole });
    const mcp = this.#mcpToolName?.(tool.name);
    if (mcp)
      out.push({ type: 'mcp_tool_call_start', toolCallId: id, server: mcp.server, toolName: mcp.tool, input: whole });
  }

  /**
   * The call's result: made ready first when it was not, its duration from the clock. A result for
   * a call never started starts it under `name` (or `unknown`). `durationMs`: the duration the agent
   * reported, used instead of the clock's (also when `toolDurations` is false).
   */
  toolResult(
    out: EventDraft[],
    id: string,
    output: unknown,
    isError: boolean,
    name?: string,
    durationMs?: number,
  ): void {
    this.readyTool(out, id, undefined, name);
    const tool = this.#tools.get(id) as OpenTool;
    this.#tools.delete(id);
    const duration = durationMs ?? (this.#durations ? Math.max(0, this.#clock() - tool.startedAt) : undefined);
    out.push(
      duration === undefined
        ? { type: 'tool_result', toolCallId: id, toolName: tool.name, output, isError }
        : { type: 'tool_result', toolCallId: id, toolName: tool.name, output, isError, durationMs: duration },
    );
    const mcp = this.#mcpToolName?.(tool.name);
    if (mcp)
      out.push({ type: 'mcp_tool_result', toolCallId: id, server: mcp.server, toolName: mcp.tool, output, isError });
  }

  /** Closes what is open: thinking, the message, and makes every started tool call ready. */
  finish(out: EventDraft[]): void {
    this.stopMessage(out);
    this.stopThinking(out);
    for (const id of this.#unready) this.readyTool(out, id);
  }
}

function parseJson(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
}
