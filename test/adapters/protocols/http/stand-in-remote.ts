import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';

/** One session on the stand-in remote, as a test script drives it. */
export interface RemoteSession {
  readonly id: string;
  readonly created: Record<string, unknown>;
  /** Writes one SSE event (`event:` + `data:` JSON). */
  send(type: string, record: Record<string, unknown>): void;
  /** Writes raw bytes to the stream (split frames, comments, garbage). */
  raw(text: string | Uint8Array): void;
  /** The next record the client posted to `/input` (accepted: 202). */
  nextInput(): Promise<Record<string, unknown>>;
  /** The next input refused with 409 (stale fencing token). */
  nextRejected(): Promise<Record<string, unknown>>;
  /** Ends the stream normally. */
  end(): void;
  /** Destroys the stream's socket (a remote that dies). */
  kill(): void;
  /** Resolves when the client has deleted the session. */
  readonly deleted: Promise<void>;
}

export interface StandInOptions {
  /** The bearer token required on every request; undefined: none required. */
  token?: () => string | undefined;
  /** Sessions open at once before `503 busy`. Default: unlimited. */
  maxSessions?: number;
  /** Answers `POST /v1/sessions` instead of the default when it returns a status. */
  onCreate?: (
    body: Record<string, unknown>,
  ) => { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  /** Inputs with a fencing token below this (or the session's own) get 409. */
  minLeaseEpoch?: number;
  /** Runs each session once its event stream is open. */
  script: (session: RemoteSession) => Promise<void> | void;
  tls?: { key: string; cert: string; ca: string };
}

export interface StandInRemote {
  readonly baseUrl: string;
  /** Every request as `METHOD path` with its Authorization header. */
  readonly requests: { method: string; path: string; authorization?: string; leaseEpoch?: string }[];
  readonly createdBodies: Record<string, unknown>[];
  readonly deletedIds: string[];
  /** Highest number of sessions open (created, not deleted) at once. */
  readonly maxOpen: number;
  readonly openSessions: number;
  /** Sockets currently connected. */
  readonly openSockets: number;
  close(): Promise<void>;
}

interface Entry {
  session: RemoteSession;
  inputs: Record<string, unknown>[];
  waiters: ((record: Record<string, unknown>) => void)[];
  rejected: Record<string, unknown>[];
  rejectedWaiters: ((record: Record<string, unknown>) => void)[];
  stream?: ServerResponse;
  markDeleted: () => void;
  deleted: boolean;
}

/** A minimal ca-http-v1 remote following the wire contract, scripted per test. Listens on 127.0.0.1:0. */
export async function startStandInRemote(options: StandInOptions): Promise<StandInRemote> {
  const sessions = new Map<string, Entry>();
  const requests: StandInRemote['requests'] = [];
  const createdBodies: Record<string, unknown>[] = [];
  const deletedIds: string[] = [];
  const sockets = new Set<Socket>();
  let open = 0;
  let maxOpen = 0;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let text = '';
    for await (const chunk of req) text += chunk;
    requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      leaseEpoch: req.headers['x-fencing-token'] as string | undefined,
    });
    const required = options.token?.();
    if (required !== undefined && req.headers.authorization !== `Bearer ${required}`) {
      json(res, 401, { error: 'unauthorized', message: 'bad or missing bearer token' });
      return;
    }
    const match = /^\/v1\/sessions(?:\/([^/]+)(?:\/(events|input))?)?$/.exec(path);
    if (!match) return json(res, 404, { error: 'not_found' });
    const [, id, sub] = match;
    if (!id && req.method === 'POST') {
      const body = JSON.parse(text) as Record<string, unknown>;
      createdBodies.push(body);
      const custom = options.onCreate?.(body);
      if (custom) return json(res, custom.status, custom.body, custom.headers);
      if (options.maxSessions !== undefined && open >= options.maxSessions) {
        return json(res, 503, { error: 'busy' }, { 'retry-after': '1' });
      }
      const sessionId = `s_${randomUUID()}`;
      let markDeleted: () => void = () => undefined;
      const deleted = new Promise<void>((resolve) => {
        markDeleted = resolve;
      });
      const entry: Entry = {
        inputs: [],
        waiters: [],
        rejected: [],
        rejectedWaiters: [],
        markDeleted,
        deleted: false,
        session: {
          id: sessionId,
          created: body,
          send: (type, record) => entry.stream?.write(`event: ${type}\ndata: ${JSON.stringify(record)}\n\n`),
          raw: (chunk) => entry.stream?.write(chunk),
          nextInput: () => {
            const next = entry.inputs.shift();
            if (next) return Promise.resolve(next);
            return new Promise((resolve) => entry.waiters.push(resolve));
          },
          nextRejected: () => {
            const next = entry.rejected.shift();
            if (next) return Promise.resolve(next);
            return new Promise((resolve) => entry.rejectedWaiters.push(resolve));
          },
          end: () => entry.stream?.end(),
          kill: () => entry.stream?.socket?.destroy(),
          deleted,
        },
      };
      sessions.set(sessionId, entry);
      open++;
      maxOpen = Math.max(maxOpen, open);
      return json(res, 201, { sessionId });
    }
    const entry = id ? sessions.get(decodeURIComponent(id)) : undefined;
    if (req.method === 'DELETE' && id && !sub) {
      deletedIds.push(decodeURIComponent(id));
      if (!entry || entry.deleted) return json(res, 404, { error: 'unknown_session' });
      entry.deleted = true;
      open--;
      entry.stream?.end();
      res.writeHead(204).end();
      entry.markDeleted();
      return;
    }
    if (!entry || entry.deleted) return json(res, 404, { error: 'unknown_session' });
    if (sub === 'events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      entry.stream = res;
      Promise.resolve(options.script(entry.session)).catch(() => res.destroy());
      return;
    }
    if (sub === 'input' && req.method === 'POST') {
      const token = Number(req.headers['x-fencing-token']);
      const record = JSON.parse(text) as Record<string, unknown>;
      const fencing = Math.max(Number(entry.session.created.fencingToken), options.minLeaseEpoch ?? 0);
      if (!(token >= fencing)) {
        const waiter = entry.rejectedWaiters.shift();
        if (waiter) waiter(record);
        else entry.rejected.push(record);
        return json(res, 409, {
          error: 'fencing_token_stale',
          message: `fencing token ${token} is older than ${fencing}`,
        });
      }
      const waiter = entry.waiters.shift();
      if (waiter) waiter(record);
      else entry.inputs.push(record);
      res.writeHead(202).end();
      return;
    }
    return json(res, 405, { error: 'method_not_allowed' });
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch(() => res.destroy());
  };
  const server: Server = options.tls
    ? createHttpsServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ca: options.tls.ca,
          requestCert: true,
          rejectUnauthorized: true,
        },
        listener,
      )
    : createHttpServer(listener);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const baseUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${address.port}`;
  return {
    baseUrl,
    requests,
    createdBodies,
    deletedIds,
    get maxOpen() {
      return maxOpen;
    },
    get openSessions() {
      return open;
    },
    get openSockets() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
