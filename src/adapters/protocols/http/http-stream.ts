import type { IncomingMessage } from 'node:http';
import type {
  AgentSession,
  ProcessController,
  RunIO,
  SessionContext,
  SessionOutcome,
  ShutdownReason,
  Translator,
  TranslatorState,
} from '../../../core/adapter/index.ts';
import { RecordPipeline } from '../../../core/run/record-pipeline.ts';
import { gracefulStop } from '../../../core/run/stop/graceful-stop.ts';
import type { ToolHost } from '../../../core/tools/tool-host.ts';
import { readSse } from '../../../core/transport/read-sse.ts';
import { processController } from '../process/process-controller.ts';
import { processTranslator } from '../process/process-translator.ts';
import { readJson } from './http-request.ts';
import type { HttpRemote } from './http-session.ts';

/** The message a remote that kept streaming after `shutdown` gets in its failed outcome. */
export const IGNORED_SHUTDOWN = 'the remote ignored the shutdown';
/** The tool error a remote gets for a tool call made after the run's lease expired. */
export const FENCING_TOKEN_EXPIRED = 'fencing token expired';

/** One ca-http-v1 call of this session (its auth and TLS already applied). */
export type CallRemote = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  signal: AbortSignal,
  json?: unknown,
  headers?: Record<string, string>,
) => Promise<IncomingMessage>;

/** A created remote session, ready to be streamed. */
export interface StreamParts {
  ctx: SessionContext;
  remote: HttpRemote;
  release: () => void;
  sessionId: string;
  sessionPath: string;
  call: CallRemote;
}

/**
 * Process-protocol records as a remote sends them: the Process translator, plus the transport's own
 * `error` record (the remote reports a problem and goes on).
 */
const remoteTranslator: Translator = {
  init: (init) => processTranslator.init(init),
  translate(record, state) {
    if (record.kind === 'json' && isObject(record.value) && record.value.type === 'error') {
      const text = typeof record.value.message === 'string' ? record.value.message : 'unknown error';
      return [{ type: 'error', code: 'agent_error', message: `the remote reported: ${text}`, recoverable: true }];
    }
    return processTranslator.translate(record, state);
  },
};

/** What the steps of one streamed session share: the abort of its live calls, and why it ends. */
interface StreamRun {
  /** Aborts the event stream and every input call of this session. */
  readonly live: AbortController;
  /** Why the controller failed the run (`io.fail`), if it did. */
  failure?: string;
  /** The reason of the first stop. */
  stopReason?: ShutdownReason;
  /** The remote refused our input as stale, or the run's lease expired: tool calls are refused. */
  fenced: boolean;
  /** The remote kept streaming through the grace after `shutdown`. */
  ignoredShutdown: boolean;
  /** Why the event stream was lost, if it was. */
  lostStream?: string;
}

/**
 * Streams a created session: its SSE events through the core's `readSse` into a `RecordPipeline`
 * with the Process translator, and the Process controller over an HTTP `RunIO` (a line written is a
 * `POST …/input`): tool calls relayed, `budget_update`, `shutdown` on stop, then `DELETE` at every end.
 */
export function streamSession(parts: StreamParts): AgentSession {
  const { ctx, release, sessionId } = parts;
  const run: StreamRun = { live: new AbortController(), fenced: false, ignoredShutdown: false };
  const onAbort = () => run.live.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const controller = processController(httpRunIO(parts, run), ctx);
  const pipeline = remotePipeline(parts, controller);
  const streamFinished = readStream(parts, run, pipeline);

  const done = (async (): Promise<SessionOutcome> => {
    try {
      await streamFinished;
      // Answers still owed to a remote that has ended are of no use; tool calls see the abort.
      if (pipeline.state.outcome || run.lostStream || run.ignoredShutdown) run.live.abort();
      await controller.settle?.();
      run.live.abort();
      return sessionOutcome(parts, run, pipeline.state);
    } finally {
      await deleteSession(parts);
      ctx.signal.removeEventListener('abort', onAbort);
      release();
    }
  })();
  done.catch(() => undefined);

  ctx.emit({ type: 'session_start', sessionId });

  return {
    done,
    onBudget: (remaining) => controller.onBudget?.(remaining),
    stop: async (reason) => {
      if (run.stopReason === undefined) await stopStream(parts, run, controller, streamFinished, reason);
      await done.catch(() => undefined);
    },
  };
}

/** The Process controller's I/O over HTTP: a line written is a `POST …/input`, a failure aborts the live calls. */
function httpRunIO(parts: StreamParts, run: StreamRun): RunIO {
  const { ctx } = parts;
  return {
    writeLine: (record) => sendInput(parts, run, record),
    emit: (draft) => ctx.emit(draft),
    fail: (error) => {
      if (run.failure !== undefined) return;
      run.failure = error.message;
      ctx.emit({ type: 'error', ...error, recoverable: false });
      run.live.abort();
    },
    tools: fencedTools(() => run.fenced, ctx.tools),
    approvals: ctx.approvals,
    signal: run.live.signal,
  };
}

/** `POST …/input` with the run's fencing token; a 409 fences the run (its tool calls are refused from then on). */
async function sendInput({ ctx, sessionPath, call }: StreamParts, run: StreamRun, record: unknown): Promise<void> {
  try {
    const response = await call('POST', `${sessionPath}/input`, run.live.signal, record, {
      'x-fencing-token': String(ctx.leaseEpoch),
    });
    const body = await readJson(response);
    if (response.statusCode === 409) {
      run.fenced = true;
      ctx.emit({
        type: 'error',
        code: 'lease_expired',
        message: `the remote refused our input: ${isObject(body) && typeof body.message === 'string' ? body.message : 'fencing token stale'}`,
        recoverable: true,
      });
    }
  } catch {
    // The remote is gone or the session is over; the event stream tells the run what happened.
  }
}

/** The pipeline the remote's records go through: events emitted, ready tool calls handed to the controller. */
function remotePipeline({ ctx, remote }: StreamParts, controller: ProcessController): RecordPipeline {
  let terminalSaid = false;
  const pipeline: RecordPipeline = new RecordPipeline({
    translator: remoteTranslator,
    protocol: 'json-lines',
    debug: ctx.debug,
    request: ctx.request,
    clock: ctx.clock,
    name: remote.agentId,
    emit: (draft) => {
      ctx.emit(draft);
      if (draft.type === 'tool_call_ready') {
        controller.onEvent?.({ ...draft, runId: ctx.runId, agent: remote.agentId, timestamp: Date.now() });
      }
    },
    // `complete` / `failed` end the session though the remote may hold the stream open: the core
    // aborts `ctx.signal` after its terminal grace, which closes the stream and deletes the session.
    onRecord: () => {
      const { state } = pipeline;
      if (state.terminal && state.outcome && !terminalSaid) {
        terminalSaid = true;
        ctx.terminalReached?.(state.outcome);
      }
    },
  });
  return pipeline;
}

/** `GET …/events` read into the pipeline until it ends; notes in `run.lostStream` why it was lost, if it was. */
async function readStream({ sessionPath, call }: StreamParts, run: StreamRun, pipeline: RecordPipeline): Promise<void> {
  const { state } = pipeline;
  let response: IncomingMessage;
  try {
    response = await call('GET', `${sessionPath}/events`, run.live.signal);
  } catch (error) {
    if (!run.live.signal.aborted) run.lostStream = `cannot open the event stream: ${(error as Error).message}`;
    return;
  }
  if (response.statusCode !== 200) {
    const body = await readJson(response);
    run.lostStream = `the remote answered ${response.statusCode} to GET ${sessionPath}/events${remoteMessage(body)}`;
    return;
  }
  try {
    await readSse(response, { sink: pipeline, eventAsType: true });
    if (!state.outcome && !run.stopReason) run.lostStream = 'the event stream ended before complete or failed';
  } catch (error) {
    if (!run.live.signal.aborted && !state.outcome)
      run.lostStream = `the event stream broke: ${(error as Error).message || String(error)}`;
  } finally {
    response.destroy();
  }
}

/** The session's outcome once its stream is over and the controller settled. */
function sessionOutcome(
  { ctx, remote, sessionId }: StreamParts,
  run: StreamRun,
  state: TranslatorState,
): SessionOutcome {
  const { failure, ignoredShutdown, lostStream, stopReason } = run;
  if (state.outcome) return { ...state.outcome, sessionId };
  if (failure !== undefined) return { status: 'failed', message: failure, sessionId };
  if (ignoredShutdown) return { status: 'failed', message: `${IGNORED_SHUTDOWN} (${stopReason})`, sessionId };
  if (lostStream && !stopReason && !ctx.signal.aborted) {
    const message = `the remote host ${hostOf(remote.config.baseUrl)} became unreachable mid-run: ${lostStream}`;
    ctx.emit({ type: 'error', code: 'remote_unavailable', message, recoverable: false });
    return { status: 'failed', message, sessionId };
  }
  if (stopReason) return { status: 'failed', message: `stopped: ${stopReason}`, sessionId };
  return { status: 'failed', message: 'aborted', sessionId };
}

/** `DELETE` of the session, best effort and bounded by the remote's delete timeout. */
async function deleteSession({ remote, sessionPath, call }: StreamParts): Promise<void> {
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), remote.deleteTimeoutMs);
  try {
    const response = await call('DELETE', sessionPath, bound.signal);
    response.resume();
    await new Promise<void>((resolve) => {
      response.on('end', resolve);
      response.on('close', resolve);
      response.on('error', () => resolve());
    });
  } catch {
    // DELETE is best effort: an unreachable remote reaps its own sessions.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The first stop: `shutdown` asked through the controller, and the stream awaited for the remote's
 * shutdown grace; a remote still streaming then is cut off (its session deleted as at every end).
 */
async function stopStream(
  { ctx, remote }: StreamParts,
  run: StreamRun,
  controller: ProcessController,
  streamFinished: Promise<void>,
  reason: ShutdownReason,
): Promise<void> {
  run.stopReason = reason;
  if (reason === 'lease_expired') run.fenced = true;
  await gracefulStop({
    ask: () => {
      controller.requestStop?.(reason);
      return streamFinished;
    },
    waitMs: remote.shutdownGraceMs,
    force: () => {
      run.ignoredShutdown = true;
      ctx.emit({
        type: 'error',
        code: 'agent_error',
        message: `${IGNORED_SHUTDOWN} (${reason}) for ${remote.shutdownGraceMs} ms; the session was deleted`,
        recoverable: false,
      });
      run.live.abort();
    },
  });
}

/** The run's tools as the remote may call them: refused once the run's lease has expired. */
function fencedTools(isFenced: () => boolean, tools: ToolHost | undefined): ToolHost {
  return {
    list: () => tools?.list() ?? [],
    call: (name, input, options) => {
      if (isFenced()) return Promise.resolve({ ok: false, error: FENCING_TOKEN_EXPIRED });
      if (!tools) return Promise.resolve({ ok: false, error: 'this run offers no tools' });
      return tools.call(name, input, options);
    },
    get outcome() {
      return tools?.outcome;
    },
  };
}

/** `host:port` of a base URL, for messages. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `message` (or `error`) a remote put in a JSON error body, as `: text`, or nothing. */
export function remoteMessage(body: unknown): string {
  if (!isObject(body)) return '';
  const text = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  return text ? `: ${text}` : '';
}
