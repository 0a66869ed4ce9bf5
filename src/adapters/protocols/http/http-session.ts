import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { AgentSession, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import type { HttpAdapterConfig } from '../../../core/config/index.ts';
import {
  CALLER_TOOLS_EXTENSION,
  CALLER_TOOLS_UNSUPPORTED,
  CALLER_TOOLS_VERSION,
  callerToolsAcceptSchema,
} from '../../../core/transport/caller-tools-extension.ts';
import { httpCall, readJson, type TlsMaterial } from './http-request.ts';
import { type CallRemote, remoteMessage, streamSession } from './http-stream.ts';
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
    // The event is typed as auth already (shown "auth: …"); the run's end names the kind itself.
    ctx.emit({ type: 'auth_error', message: transport.failure, guidance: transport.guidance });
    return ended({ status: 'failed', message: `auth: ${transport.failure}` }, release);
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
    created = await call('POST', '/v1/sessions', creation.signal, sessionRequest(ctx, remote));
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
  if (created.statusCode === 422 && isObject(createdBody) && createdBody.error === CALLER_TOOLS_UNSUPPORTED) {
    const message = `the remote cannot work on this run's checkout${remoteMessage(createdBody)}`;
    ctx.emit({ type: 'error', code: 'agent_error', message, recoverable: false });
    return ended({ status: 'failed', message }, release);
  }
  const sessionId = isObject(createdBody) && typeof createdBody.sessionId === 'string' ? createdBody.sessionId : '';
  if (created.statusCode === undefined || created.statusCode < 200 || created.statusCode >= 300 || !sessionId) {
    const message = `the remote answered ${created.statusCode} to POST /v1/sessions${remoteMessage(createdBody)}`;
    if ((created.statusCode ?? 500) >= 500) return unavailable(ctx, release, message);
    ctx.emit({ type: 'error', code: 'agent_error', message, recoverable: false });
    return ended({ status: 'failed', message }, release);
  }
  const extensions = isObject(createdBody) && isObject(createdBody.extensions) ? createdBody.extensions : {};
  if (!callerToolsAcceptSchema.safeParse(extensions[CALLER_TOOLS_EXTENSION]).success) {
    // A remote that does not know the extension: plain ca-http-v1 (its agent's tool calls come here
    // as ever, but what it does with tools of its own happens on its host).
    ctx.emit({
      type: 'debug',
      message: `the remote did not take the ${CALLER_TOOLS_EXTENSION} extension: plain ca-http-v1`,
    });
  }
  const sessionPath = `/v1/sessions/${encodeURIComponent(sessionId)}`;
  return streamSession({ ctx, remote, release, sessionId, sessionPath, call });
}

/**
 * The body of `POST /v1/sessions`: the run's identity, the task with the model the caller asks for,
 * and the `caller-tools` offer (the run's tools, relayed: the remote's agent works on this run's
 * checkout). Never the run's MCP URL or token: they name this host's loopback and are no use there.
 */
export function sessionRequest(ctx: SessionContext, remote: HttpRemote): Record<string, unknown> {
  return {
    runId: ctx.runId,
    taskId: ctx.taskId,
    leaseToken: ctx.leaseToken,
    fencingToken: ctx.leaseEpoch,
    mcpUrl: '',
    agent: { id: remote.agentId, name: remote.agentName, role: remote.agentRole, policy: ctx.policy ?? {} },
    task: { prompt: ctx.request.prompt, ...(ctx.request.model ? { model: ctx.request.model } : {}) },
    context: {
      model: ctx.request.model,
      systemPrompt: ctx.request.systemPrompt,
      maxTurns: ctx.request.maxTurns,
      thinkingEffort: ctx.request.thinkingEffort,
    },
    extensions: {
      [CALLER_TOOLS_EXTENSION]: { version: CALLER_TOOLS_VERSION, tools: ctx.tools?.list() ?? [], required: true },
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
      return { failure: `the variable ${auth.tokenEnv} is not set`, guidance: `set ${auth.tokenEnv}` };
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
        failure: `cannot read the mTLS files: ${(error as Error).message}`,
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
