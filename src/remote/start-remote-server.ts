import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { Adapter } from '../core/adapter/index.ts';
import type { FenceOptions } from '../core/sandbox/fence-options.ts';
import { bearerCheck } from './bearer-check.ts';
import type { RemoteServerState } from './remote-server-state.ts';
import type { RemoteSession } from './remote-session.ts';
import { RequestBodyError } from './request-body-error.ts';
import { routeRemoteRequest } from './route-remote-request.ts';
import { sendJson } from './send-json.ts';
import { sweepStaleWorkspaces } from './sweep-stale-workspaces.ts';

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

export interface RemoteServerHandle {
  url: string;
  port: number;
  /** Stops every run, ends every stream and closes the server. */
  close(): Promise<void>;
}

/** Serves `options.adapter` over ca-http-v1 (see docs/remote.md). */
export async function startRemoteServer(options: RemoteServerOptions): Promise<RemoteServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const workspaceRoot = resolve(options.workspaceRoot ?? tmpdir());
  // Workspaces a server that died (kill -9) left behind, and the agents still running in them.
  await sweepStaleWorkspaces(workspaceRoot);
  const auth = options.auth;
  const state: RemoteServerState = {
    options,
    sessions: new Map<string, RemoteSession>(),
    maxSessions: options.maxSessions ?? 4,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
    retryAfter: String(options.retryAfterSeconds ?? 5),
    workspaceRoot,
    authorized: bearerCheck(auth.type === 'bearer' ? auth.token : undefined),
  };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    routeRemoteRequest(state, request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.end();
        return;
      }
      const status = RequestBodyError.isInstance(error) ? 400 : 500;
      sendJson(response, status, {
        error: status === 400 ? 'bad_request' : 'internal',
        message: (error as Error).message,
      });
    });
  };

  const server = await listen(auth, listener, options.port ?? 0, host);
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
        await Promise.all([...state.sessions.values()].map((session) => session.remove('the server is closing')));
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

/** An HTTP server (HTTPS asking for client certificates, with mTLS) listening on `host:port`. */
async function listen(
  auth: RemoteServerAuth,
  listener: (request: IncomingMessage, response: ServerResponse) => void,
  port: number,
  host: string,
): Promise<Server> {
  let server: Server;
  if (auth.type === 'mtls') {
    const [cert, key, ca] = await Promise.all([readFile(auth.certPath), readFile(auth.keyPath), readFile(auth.caPath)]);
    server = createHttpsServer({ cert, key, ca, requestCert: true, rejectUnauthorized: true }, listener);
  } else {
    server = createHttpServer(listener);
  }
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  return server;
}
