import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { AgentSession, SessionContext, SessionOutcome, ShutdownReason } from '../../../core/adapter/index.ts';
import type { HttpAdapterConfig } from '../../../core/config/index.ts';
import type { DraftOf } from '../../../core/events/index.ts';
import { settleWithin } from '../../../core/run/settle-within.ts';
import type { ToolResult } from '../../../core/tools/tool-host.ts';
import { processTranslator } from '../process/process-translator.ts';
import { httpCall, readJson, type TlsMaterial } from './http-request.ts';
import type { SessionPool } from './session-pool.ts';

/** What one adapter instance shares between its sessions. */
export interface HttpRemote {
  config: HttpAdapterConfig;
  pool: SessionPool;
  shutdownGraceMs: number;
  deleteTimeoutMs: number;
  agentId: string;
  agentName: string;
  agentRole: string;
}

interface Transport {
  headers: Record<string, string>;
  tls?: TlsMaterial;
}

/** The message a remote that kept streaming after `shutdown` gets in its failed outcome. */
export const IGNORED_SHUTDOWN = 'the remote ignored the shutdown';
/** The tool error a remote gets for a tool call made after the run's lease expired. */
export const FENCING_TOKEN_EXPIRED = 'fencing token expired';

/** Waits for a pool slot, creates the remote session and streams it; the slot is freed at every end. */
export async function openHttpSession(ctx: SessionContext, remote: HttpRemote): Promise<AgentSession> {
  const release = await remote.pool.acquire(ctx.signal);
  let handedOver = false;
  try {
    const session = await createSession(ctx, remote, release);
    handedOver = true;
    return session;
  } finally {
    if (!handedOver) release();
  }
}

function ended(outcome: SessionOutcome, release: () => void): AgentSession {
  release();
  return { done: Promise.resolve(outcome), stop: async () => undefined };
}

async function createSession(ctx: SessionContext, remote: HttpRemote, release: () => void): Promise<AgentSession> {
  const { config } = remote;
  const root = config.baseUrl.replace(/\/+$/, '');
  const url = (path: string) => new URL(root + path);
  const transport = await prepareTransport(ctx, config);
  if ('failure' in transport) {
    ctx.emit({ type: 'auth_error', message: transport.failure, guidance: transport.guidance });
    return ended({ status: 'failed', message: transport.failure }, release);
  }
  if (config.auth.type === 'none' && !isLoopback(url('/').hostname)) {
    ctx.emit({
      type: 'error',
      code: 'auth',
      message: `auth "none" sends the task to ${url('/').host} unauthenticated; use bearer or mtls outside a trusted network`,
      recoverable: true,
    });
  }
  const call: CallRemote = (method, path, signal, json, headers) =>
    httpCall(url(path), { method, json, signal, tls: transport.tls, headers: { ...transport.headers, ...headers } });

  // --- POST /v1/sessions ---
  const creation = new AbortController();
  const onOpenAbort = () => creation.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onOpenAbort, { once: true });
  let created: IncomingMessage;
  try {
    created = await call('POST', '/v1/sessions', creation.signal, {
      runId: ctx.runId,
      taskId: ctx.taskId,
      leaseToken: ctx.leaseToken,
      fencingToken: ctx.fencingToken,
      mcpUrl: ctx.mcpUrl,
      agent: { id: remote.agentId, name: remote.agentName, role: remote.agentRole, policy: ctx.policy ?? {} },
      task: { prompt: ctx.request.prompt },
      context: {
        model: ctx.request.model,
        systemPrompt: ctx.request.systemPrompt,
        maxTurns: ctx.request.maxTurns,
        thinkingEffort: ctx.request.thinkingEffort,
        mcpToken: ctx.mcpToken || undefined,
      },
    });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return unavailable(ctx, release, `cannot reach the remote: ${(error as Error).message}`);
  } finally {
    ctx.signal.removeEventListener('abort', onOpenAbort);
  }
  const createdBody = await readJson(created);
  if (created.statusCode === 401 || created.statusCode === 403) {
    const message = `auth failed: the remote answered ${created.statusCode} to POST /v1/sessions${remoteMessage(createdBody)}`;
    ctx.emit({
      type: 'auth_error',
      message,
      guidance:
        config.auth.type === 'bearer'
          ? `check the token in ${config.auth.tokenEnv}`
          : 'check the credentials the remote expects (auth in the adapter configuration)',
    });
    return ended({ status: 'failed', message }, release);
  }
  if (created.statusCode === 503) {
    const retryAfter = created.headers['retry-after'];
    return unavailable(
      ctx,
      release,
      `the remote is busy (503${retryAfter ? `, retry after ${retryAfter} s` : ''})${remoteMessage(createdBody)}`,
    );
  }
  const sessionId = isObject(createdBody) && typeof createdBody.sessionId === 'string' ? createdBody.sessionId : '';
  if (created.statusCode === undefined || created.statusCode < 200 || created.statusCode >= 300 || !sessionId) {
    const message = `the remote answered ${created.statusCode} to POST /v1/sessions${remoteMessage(createdBody)}`;
    if ((created.statusCode ?? 500) >= 500) return unavailable(ctx, release, message);
    ctx.emit({ type: 'error', code: 'agent_error', message, recoverable: false });
    return ended({ status: 'failed', message }, release);
  }
  const sessionPath = `/v1/sessions/${encodeURIComponent(sessionId)}`;
  return streamSession({ ctx, remote, release, sessionId, sessionPath, call });
}

interface StreamParts {
  ctx: SessionContext;
  remote: HttpRemote;
  release: () => void;
  sessionId: string;
  sessionPath: string;
  call: CallRemote;
}

type CallRemote = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  signal: AbortSignal,
  json?: unknown,
  headers?: Record<string, string>,
) => Promise<IncomingMessage>;

function streamSession(parts: StreamParts): AgentSession {
  const { ctx, remote, release, sessionId, sessionPath, call } = parts;
  /** Aborts the event stream and every input call of this session. */
  const live = new AbortController();
  const onAbort = () => live.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const state = processTranslator.init({ debug: ctx.debug, request: ctx.request });
  const answered = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let stopReason: ShutdownReason | undefined;
  let fenced = false;
  let ignoredShutdown = false;
  let lostStream: string | undefined;
  let terminalSaid = false;

  const sendInput = async (record: Record<string, unknown>): Promise<void> => {
    try {
      const response = await call('POST', `${sessionPath}/input`, live.signal, record, {
        'x-fencing-token': String(ctx.fencingToken),
      });
      const body = await readJson(response);
      if (response.statusCode === 409) {
        fenced = true;
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
  };

  const answerToolCall = async (draft: DraftOf<'tool_call_ready'>): Promise<void> => {
    const started = Date.now();
    const id = draft.toolCallId;
    const result: ToolResult = fenced
      ? { ok: false, error: FENCING_TOKEN_EXPIRED }
      : ctx.tools
        ? await ctx.tools.call(draft.toolName, draft.input, { toolCallId: id, signal: live.signal })
        : { ok: false, error: 'this run offers no tools' };
    ctx.emit({
      type: 'tool_result',
      toolCallId: id,
      toolName: draft.toolName,
      output: result.ok ? result.value : result.error,
      isError: !result.ok,
      durationMs: Date.now() - started,
    });
    if (live.signal.aborted) return;
    await sendInput(
      result.ok
        ? { type: 'tool_result', id, ok: true, value: result.value }
        : { type: 'tool_result', id, ok: false, error: result.error },
    );
  };

  const onMessage = (message: EventSourceMessage): void => {
    let value: unknown;
    try {
      value = JSON.parse(message.data);
    } catch {
      ctx.emit({
        type: 'error',
        code: 'malformed_record',
        message: `an SSE event${message.event ? ` "${message.event}"` : ''} whose data is not JSON`,
        recoverable: true,
      });
      return;
    }
    if (message.event === 'error' || (isObject(value) && value.type === 'error')) {
      const text = isObject(value) && typeof value.message === 'string' ? value.message : 'unknown error';
      ctx.emit({ type: 'error', code: 'agent_error', message: `the remote reported: ${text}`, recoverable: true });
      return;
    }
    if (isObject(value) && value.type === undefined && message.event) value = { ...value, type: message.event };
    for (const draft of processTranslator.translate({ kind: 'json', value }, state)) {
      ctx.emit(draft);
      if (draft.type === 'tool_call_ready' && !answered.has(draft.toolCallId)) {
        answered.add(draft.toolCallId);
        const pending = answerToolCall(draft).finally(() => inFlight.delete(pending));
        inFlight.add(pending);
      }
    }
    // `complete` / `failed` end the session though the remote may hold the stream open: the core
    // aborts `ctx.signal` after its terminal grace, which closes the stream and deletes the session.
    if (state.terminal && state.outcome && !terminalSaid) {
      terminalSaid = true;
      ctx.terminalReached?.(state.outcome);
    }
  };

  const readStream = async (): Promise<void> => {
    let response: IncomingMessage;
    try {
      response = await call('GET', `${sessionPath}/events`, live.signal);
    } catch (error) {
      if (!live.signal.aborted) lostStream = `cannot open the event stream: ${(error as Error).message}`;
      return;
    }
    if (response.statusCode !== 200) {
      const body = await readJson(response);
      lostStream = `the remote answered ${response.statusCode} to GET ${sessionPath}/events${remoteMessage(body)}`;
      return;
    }
    const parser = createParser({
      onEvent: onMessage,
      onError: (error) =>
        ctx.emit({ type: 'error', code: 'malformed_record', message: `bad SSE: ${error.message}`, recoverable: true }),
    });
    response.setEncoding('utf8');
    try {
      for await (const chunk of response) parser.feed(chunk as string);
      if (!state.outcome && !stopReason) lostStream = 'the event stream ended before complete or failed';
    } catch (error) {
      if (!live.signal.aborted && !state.outcome)
        lostStream = `the event stream broke: ${(error as Error).message || String(error)}`;
    } finally {
      response.destroy();
    }
  };

  const streamFinished = readStream();

  const deleteSession = async (): Promise<void> => {
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
  };

  const done = (async (): Promise<SessionOutcome> => {
    try {
      await streamFinished;
      // Answers still owed to a remote that has ended are of no use; tool calls see the abort.
      if (state.outcome || lostStream || ignoredShutdown) live.abort();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      live.abort();
      if (state.outcome) return { ...state.outcome, sessionId };
      if (ignoredShutdown) return { status: 'failed', message: `${IGNORED_SHUTDOWN} (${stopReason})`, sessionId };
      if (lostStream && !stopReason && !ctx.signal.aborted) {
        const message = `the remote became unreachable mid-run: ${lostStream}`;
        ctx.emit({ type: 'error', code: 'remote_unavailable', message, recoverable: false });
        return { status: 'failed', message, sessionId };
      }
      if (stopReason) return { status: 'failed', message: `stopped: ${stopReason}`, sessionId };
      return { status: 'failed', message: 'aborted', sessionId };
    } finally {
      await deleteSession();
      ctx.signal.removeEventListener('abort', onAbort);
      release();
    }
  })();
  done.catch(() => undefined);

  ctx.emit({ type: 'session_start', sessionId });

  return {
    done,
    onBudget: (remaining) => {
      void sendInput({ type: 'budget_update', remaining });
    },
    stop: async (reason) => {
      if (stopReason === undefined) {
        stopReason = reason;
        if (reason === 'lease_expired') fenced = true;
        void sendInput({ type: 'shutdown', reason });
        const inTime = await settleWithin(
          streamFinished.then(() => true),
          remote.shutdownGraceMs,
          false,
        );
        if (!inTime) {
          ignoredShutdown = true;
          ctx.emit({
            type: 'error',
            code: 'agent_error',
            message: `${IGNORED_SHUTDOWN} (${reason}) for ${remote.shutdownGraceMs} ms; the session was deleted`,
            recoverable: false,
          });
          live.abort();
        }
      }
      await done.catch(() => undefined);
    },
  };
}

function unavailable(ctx: SessionContext, release: () => void, message: string): AgentSession {
  ctx.emit({ type: 'error', code: 'remote_unavailable', message, recoverable: false });
  return ended({ status: 'failed', reason: 'crashed', message: `remote_unavailable: ${message}` }, release);
}

async function prepareTransport(
  ctx: SessionContext,
  config: HttpAdapterConfig,
): Promise<Transport | { failure: string; guidance: string }> {
  const auth = config.auth;
  if (auth.type === 'bearer') {
    const token = ctx.env[auth.tokenEnv];
    if (!token) {
      return { failure: `auth: the variable ${auth.tokenEnv} is not set`, guidance: `set ${auth.tokenEnv}` };
    }
    return { headers: { authorization: `Bearer ${token}` } };
  }
  if (auth.type === 'mtls') {
    try {
      const [cert, key, ca] = await Promise.all([
        readFile(auth.certPath),
        readFile(auth.keyPath),
        auth.caPath ? readFile(auth.caPath) : undefined,
      ]);
      return { headers: {}, tls: { cert, key, ca } };
    } catch (error) {
      return {
        failure: `auth: cannot read the mTLS files: ${(error as Error).message}`,
        guidance: 'check certPath, keyPath and caPath',
      };
    }
  }
  return { headers: {} };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function remoteMessage(body: unknown): string {
  if (!isObject(body)) return '';
  const text = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  return text ? `: ${text}` : '';
}
