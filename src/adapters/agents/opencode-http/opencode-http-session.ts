import type { AgentSession, NativeRecord, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import { logDraft } from '../../../core/events/log-draft.ts';
import { definedEnv } from '../../../core/run/defined-env.ts';
import { RecordPipeline } from '../../../core/run/record-pipeline.ts';
import { awaitApproval } from '../../../core/tools/await-approval.ts';
import { readSse } from '../../../core/transport/read-sse.ts';
import { openCodeConfig } from '../opencode/opencode-plan.ts';
import { type OpenCodeHttpTranslatorState, openCodeHttpTranslator } from './opencode-http-translator.ts';
import { type OpenCodeServer, startOpenCodeServer } from './opencode-server.ts';

export interface OpenCodeHttpSessionOptions {
  command: string;
  /** Default 60 s. */
  startupTimeoutMs?: number;
  /** How long a permission question may wait for an answer. Default 10 min. */
  approvalTimeoutMs?: number;
  /** Called with each raw SSE `data:` of the event stream (recording). */
  onRawEvent?: (data: string) => void;
}

/**
 * One run on a private `opencode serve`: start it, subscribe to `GET /event`, `POST /session`, send the
 * prompt with `POST /session/{id}/prompt_async`, translate the events until `session.idle`, answer
 * `permission.asked` through the run's approval channel (`POST /permission/{id}/reply`), then stop the
 * server's whole process group.
 */
export async function openOpenCodeHttpSession(
  ctx: SessionContext,
  options: OpenCodeHttpSessionOptions,
): Promise<AgentSession> {
  const config = openCodeConfig(ctx, { defaultAgent: 'build' });
  const env = {
    ...definedEnv(ctx.env),
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    ...(ctx.request.env ?? {}),
  };
  const server = await startOpenCodeServer({
    command: options.command,
    cwd: ctx.request.cwd,
    env,
    startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
    signal: ctx.signal,
    onLog: (stream, line) => ctx.emit(logDraft(stream, line)),
  });
  const run = new OpenCodeHttpRun(ctx, options, server);
  try {
    await run.start();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { done: run.done, stop: (reason) => run.stop(reason) };
}

/** How long a stop waits for the server to acknowledge `POST /session/{id}/abort`. */
const ABORT_WAIT_MS = 1000;

class OpenCodeHttpRun {
  readonly done: Promise<SessionOutcome>;
  readonly #ctx: SessionContext;
  readonly #options: OpenCodeHttpSessionOptions;
  readonly #server: OpenCodeServer;
  readonly #pipeline: RecordPipeline<OpenCodeHttpTranslatorState>;
  readonly #state: OpenCodeHttpTranslatorState;
  readonly #events = new AbortController();
  #sessionId?: string;
  #finish!: (outcome: SessionOutcome) => void;
  #finished = false;
  #stopping?: Promise<void>;

  constructor(ctx: SessionContext, options: OpenCodeHttpSessionOptions, server: OpenCodeServer) {
    this.#ctx = ctx;
    this.#options = options;
    this.#server = server;
    this.#pipeline = new RecordPipeline({
      translator: openCodeHttpTranslator,
      protocol: 'json-lines',
      debug: ctx.debug,
      request: ctx.request,
      clock: ctx.clock,
      name: 'opencode',
      emit: (draft) => ctx.emit(draft),
      onRecord: (record) => this.#onRecord(record),
    });
    this.#state = this.#pipeline.state;
    const ended = new Promise<SessionOutcome>((resolve) => {
      this.#finish = resolve;
    });
    // Nothing of the server may outlive the run: `done` settles once its process group is gone.
    this.done = ended.then(async (outcome) => {
      await this.#shutdown();
      return outcome;
    });
    server.exited.then((exit) => {
      this.#end({
        status: 'failed',
        reason: 'crashed',
        message: `opencode serve exited (code ${exit.exitCode ?? 'none'}, signal ${exit.signal ?? 'none'})`,
      });
    });
    // An aborted run: ask the server to abort the session (best effort), then end its process group.
    ctx.signal.addEventListener('abort', () => void this.stop('cancelled'), { once: true });
  }

  async start(): Promise<void> {
    const body = await this.#subscribe();
    void this.#read(body);
    const created = (await this.#json('POST', '/session', { title: 'agent-mux' })) as { id?: unknown };
    if (typeof created.id !== 'string') throw new Error('opencode serve: POST /session gave no id');
    this.#sessionId = created.id;
    this.#state.sessionId ??= created.id;
    const prompt: Record<string, unknown> = { parts: [{ type: 'text', text: this.#ctx.request.prompt }] };
    const model = splitModel(this.#ctx.request.model);
    if (model) prompt.model = model;
    if (this.#ctx.request.systemPrompt) prompt.system = this.#ctx.request.systemPrompt;
    await this.#json('POST', `/session/${created.id}/prompt_async`, prompt);
  }

  async stop(_reason: string): Promise<void> {
    if (this.#sessionId && !this.#finished) {
      await this.#json('POST', `/session/${this.#sessionId}/abort`, {}, AbortSignal.timeout(ABORT_WAIT_MS)).catch(
        () => undefined,
      );
    }
    this.#end({ status: 'failed', message: 'stopped', sessionId: this.#sessionId });
    await this.#shutdown();
  }

  async #subscribe(): Promise<ReadableStream<Uint8Array>> {
    const res = await fetch(`${this.#server.url}/event`, {
      headers: { accept: 'text/event-stream' },
      signal: this.#events.signal,
    });
    if (!res.ok || !res.body) throw new Error(`opencode serve: GET /event answered ${res.status}`);
    return res.body;
  }

  async #read(body: ReadableStream<Uint8Array>): Promise<void> {
    const onRawEvent = this.#options.onRawEvent;
    try {
      // Data that is not JSON goes to the translator as text.
      await readSse(body, {
        sink: this.#pipeline,
        nonJson: 'text',
        onMessage: onRawEvent ? (message) => onRawEvent(message.data) : undefined,
      });
    } catch {
      // Aborted at shutdown, or the server went away (its exit ends the run).
    }
  }

  /** After the translator: answers `permission.asked`, and ends the run once the translator saw its end. */
  #onRecord(record: NativeRecord): void {
    const value = record.kind === 'json' ? record.value : undefined;
    if (isPermissionAsked(value) && value.properties.sessionID === this.#sessionId) void this.#ask(value.properties);
    if (this.#state.outcome) {
      const outcome = this.#state.outcome;
      this.#end({ ...outcome, sessionId: this.#state.sessionId });
    }
  }

  /** `permission.asked`: `{id, sessionID, permission, patterns, metadata, always, tool: {messageID, callID}}`. */
  async #ask(asked: PermissionAsked): Promise<void> {
    const decision = await awaitApproval({
      channel: this.#ctx.approvals,
      request: {
        approvalId: asked.id,
        runId: this.#ctx.runId,
        toolName: asked.permission,
        input: asked.metadata ?? { patterns: asked.patterns },
        reason: Array.isArray(asked.patterns) ? asked.patterns.join(', ') : undefined,
        ...(asked.tool?.callID ? { toolCallId: asked.tool.callID } : {}),
      },
      signal: this.#ctx.signal,
      timeoutMs: this.#options.approvalTimeoutMs ?? 600_000,
      abortedReason: 'the run was stopped',
      emit: (draft) => this.#ctx.emit(draft),
    });
    const reply =
      decision.kind === 'approve'
        ? { reply: decision.scope === 'always' ? 'always' : 'once' }
        : { reply: 'reject', message: decision.reason };
    await this.#json('POST', `/permission/${encodeURIComponent(asked.id)}/reply`, reply).catch((error: unknown) => {
      this.#ctx.emit({
        type: 'error',
        code: 'agent_error',
        message: `permission reply failed: ${String(error)}`,
        recoverable: true,
      });
    });
  }

  async #json(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    const res = await fetch(`${this.#server.url}${path}`, {
      method,
      signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`opencode serve: ${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return text === '' ? undefined : JSON.parse(text);
  }

  #end(outcome: SessionOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#finish(outcome);
  }

  #shutdown(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#events.abort();
      await this.#server.stop();
    })();
    return this.#stopping;
  }
}

interface PermissionAsked {
  id: string;
  sessionID: string;
  permission: string;
  patterns?: string[];
  metadata?: Record<string, unknown>;
  tool?: { messageID?: string; callID?: string };
}

function isPermissionAsked(value: unknown): value is { type: string; properties: PermissionAsked } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; properties?: { id?: unknown; permission?: unknown } };
  return (
    v.type === 'permission.asked' && typeof v.properties?.id === 'string' && typeof v.properties.permission === 'string'
  );
}

/** `provider/model` → `{providerID, modelID}` (the model id may contain slashes). */
export function splitModel(model: string | undefined): { providerID: string; modelID: string } | undefined {
  if (!model) return undefined;
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) return undefined;
  return { providerID: model.slice(0, slash), modelID: model.slice(slash + 1) };
}
