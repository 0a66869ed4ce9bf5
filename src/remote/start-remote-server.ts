import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Adapter } from '../core/adapter/index.ts';
import type { FenceOptions } from '../core/sandbox/fence-options.ts';
import {
  CALLER_TOOLS_EXTENSION,
  CALLER_TOOLS_UNSUPPORTED,
  CALLER_TOOLS_VERSION,
} from '../core/transport/caller-tools-extension.ts';
import { RemoteSession } from './remote-session.ts';
import { RequestBodyError } from './request-body-error.ts';
import { createSessionSchema, inputRecordSchema } from './session-requests.ts';
import { OWNED_PREFIX, OWNER_FILE, sweepStaleWorkspaces } from './sweep-stale-workspaces.ts';

export type RemoteServerAuth =
  | { type: 'bearer'; token: string }
  | { type: 'mtls'; certPath: string; keyPath: string; caPath: string }
  | { type: 'none' };

export interface RemoteServerOptions {
  /** The local adapter every session runs (process or session kind). */
  adapter: Adapter;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  auth: RemoteServerAuth;
  /** Sessions whose runs have not ended; one more gets 503. Default 4. */
  maxSessions?: number;
  /** Interval of the `: ping` comments on event streams. Default 15000. */
  heartbeatMs?: number;
  /** A session with no events reader and no input for this long is stopped and removed. Default 300000. */
  idleTimeoutMs?: number;
  /** Where sessions' workspaces are: a fresh temporary directory under it, or the task's `cwd` inside it. Default: the OS temp dir. */
  workspaceRoot?: string;
  /** Time between the graceful stop request and SIGTERM for each run (see RunOptions.graceMs). */
  graceMs?: number;
  /** The environment the runs see. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Seconds sent in `Retry-After` with a 503. Default 5. */
  retryAfterSeconds?: number;
  /**
   * Each run's fence (`{kind: 'processes'}`: a PID namespace whose processes all die with the
   * server, even on `kill -9`). Default: none. The CLI sets it where bubblewrap works.
   */
  fence?: FenceOptions;
}

/** What a served agent working with the caller's tools is told about them. */
const CALLER_TOOLS_PROMPT =
  "Your tools act on the caller's checkout of the repository, on another machine: use them (shell, read_file, write_file, list_files) with paths relative to the repository root. The directory you start in is empty scratch space, not the repository.";

export interface RemoteServerHandle {
  url: string;
  port: number;
  /** Stops every run, ends every stream and closes the server. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Serves `options.adapter` over ca-http-v1 (see docs/remote.md). */
export async function startRemoteServer(options: RemoteServerOptions): Promise<RemoteServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const maxSessions = options.maxSessions ?? 4;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const retryAfter = String(options.retryAfterSeconds ?? 5);
  const workspaceRoot = resolve(options.workspaceRoot ?? tmpdir());
  // Workspaces a server that died (kill -9) left behind, and the agents still running in them.
  await sweepStaleWorkspaces(workspaceRoot);
  const sessions = new Map<string, RemoteSession>();
  const auth = options.auth;
  const expected = auth.type === 'bearer' ? digest(auth.token) : undefined;

  const authorized = (request: IncomingMessage): boolean => {
    if (!expected) return true;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!authorized(request)) {
      return send(response, 401, {
        error: 'unauthorized',
        message: 'a valid Authorization: Bearer token is required',
      });
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'v1' || parts[1] !== 'sessions') return send(response, 404, { error: 'not_found' });
    const method = request.method ?? 'GET';

    if (parts.length === 2) {
      if (method !== 'POST') return send(response, 405, { error: 'method_not_allowed' });
      return create(request, response);
    }
    const session = sessions.get(decodeURIComponent(parts[2] ?? ''));
    const action = parts[3];
    if (parts.length > 4) return send(response, 404, { error: 'not_found' });
    if (!session) return send(response, 404, { error: 'not_found', message: 'no such session' });

    if (action === undefined) {
      if (method !== 'DELETE') return send(response, 405, { error: 'method_not_allowed' });
      await session.remove('the caller deleted the session');
      response.writeHead(204).end();
      return;
    }
    if (action === 'events') {
      if (method !== 'GET') return send(response, 405, { error: 'method_not_allowed' });
      session.attach(response);
      return;
    }
    if (action === 'input') {
      if (method !== 'POST') return send(response, 405, { error: 'method_not_allowed' });
      const header = request.headers['x-fencing-token'];
      if (header !== undefined) {
        const token = Number(header);
        if (!Number.isInteger(token)) {
          return send(response, 400, { error: 'bad_request', message: 'X-Fencing-Token must be an integer' });
        }
        if (!session.checkFencing(token)) {
          return send(response, 409, {
            error: 'fencing_token_stale',
            message: `fencing token ${token} is older than ${session.fencingToken}`,
          });
        }
      }
      const body = await readJson(request);
      const parsed = inputRecordSchema.safeParse(body);
      if (!parsed.success) {
        return send(response, 400, {
          error: 'bad_request',
          message: 'the body is not a tool_result, budget_update or shutdown record',
        });
      }
      session.input(parsed.data);
      return send(response, 202, { accepted: true });
    }
    return send(response, 404, { error: 'not_found' });
  };

  const create = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const parsed = createSessionSchema.safeParse(await readJson(request));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return send(response, 400, {
        error: 'bad_request',
        message: `invalid session request${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
      });
    }
    const running = [...sessions.values()].filter((s) => s.running).length;
    if (running >= maxSessions) {
      response.setHeader('retry-after', retryAfter);
      return send(response, 503, { error: 'busy', message: `this server runs at most ${maxSessions} sessions` });
    }
    const body = parsed.data;
    const offer = body.extensions?.[CALLER_TOOLS_EXTENSION];
    const takesCallerTools = offer !== undefined && options.adapter.callerTools !== undefined;
    if (offer?.required && !takesCallerTools) {
      return send(response, 422, {
        error: CALLER_TOOLS_UNSUPPORTED,
        message: `${options.adapter.id} cannot work with the caller's tools only (its own tools would change this host's files, not the caller's checkout); see docs/remote.md`,
      });
    }
    let cwd: string;
    let ownedDir: string | undefined;
    if (body.task.cwd !== undefined) {
      cwd = resolve(workspaceRoot, body.task.cwd);
      const inside = relative(workspaceRoot, cwd);
      if (inside.startsWith('..') || isAbsolute(inside)) {
        return send(response, 400, {
          error: 'bad_request',
          message: `task.cwd ${body.task.cwd} is outside this server's workspace root`,
        });
      }
    } else {
      await mkdir(workspaceRoot, { recursive: true });
      ownedDir = await mkdtemp(join(workspaceRoot, OWNED_PREFIX));
      await writeFile(join(ownedDir, OWNER_FILE), `${process.pid}\n`);
      cwd = ownedDir;
    }
    const model = body.task.model ?? body.context?.model;
    const id = `ses_${randomUUID()}`;
    const session = new RemoteSession({
      id,
      adapter: options.adapter,
      request: {
        prompt: body.task.prompt,
        cwd,
        ...(model ? { model } : {}),
        ...(takesCallerTools ? { systemPrompt: CALLER_TOOLS_PROMPT } : {}),
      },
      ...(takesCallerTools ? { callerTools: offer.tools } : {}),
      ...(options.fence ? { fence: options.fence } : {}),
      runId: body.runId,
      taskId: body.taskId,
      leaseToken: body.leaseToken,
      fencingToken: body.fencingToken,
      heartbeatMs,
      idleTimeoutMs,
      graceMs: options.graceMs,
      env: options.env,
      ownedDir,
      onRemoved: (removed) => {
        if (sessions.get(removed.id) === removed) sessions.delete(removed.id);
      },
    });
    sessions.set(id, session);
    return send(response, 201, {
      sessionId: id,
      ...(takesCallerTools ? { extensions: { [CALLER_TOOLS_EXTENSION]: { version: CALLER_TOOLS_VERSION } } } : {}),
    });
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.end();
        return;
      }
      const status = RequestBodyError.isInstance(error) ? 400 : 500;
      send(response, status, {
        error: status === 400 ? 'bad_request' : 'internal',
        message: (error as Error).message,
      });
    });
  };

  let server: Server;
  if (auth.type === 'mtls') {
    const [cert, key, ca] = await Promise.all([readFile(auth.certPath), readFile(auth.keyPath), readFile(auth.caPath)]);
    server = createHttpsServer({ cert, key, ca, requestCert: true, rejectUnauthorized: true }, listener);
  } else {
    server = createHttpServer(listener);
  }
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const scheme = auth.type === 'mtls' ? 'https' : 'http';
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `${scheme}://${urlHost}:${port}`,
    port,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        await Promise.all([...sessions.values()].map((session) => session.remove('the server is closing')));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RequestBodyError('the request body is too large');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new RequestBodyError(`the request body is not JSON: ${(error as Error).message}`, { cause: error });
  }
}
