/**
 * A stand-in for api.github.com on 127.0.0.1 for tests of the Action, the Probot app and `src/github`.
 *
 * ```ts
 * const gh = await startFakeGitHub();
 * gh.state.addRepo({ owner: 'acme', repo: 'widgets' });
 * const octokit = new Octokit({ auth: 'tok', baseUrl: gh.url });
 * // … drive the code under test …
 * gh.assertNoViolations();
 * await gh.close();
 * ```
 *
 * Every request is matched to an operation of `@octokit/openapi`'s description and validated (path,
 * query, body); every response the fake sends is validated too. Anything off is answered like GitHub
 * would (404 / 422 with `{message, documentation_url}`) and recorded in `violations`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appRoutes, jwtOperations } from './app-routes.ts';
import { checkRunRoutes } from './check-run-routes.ts';
import { compareRoutes } from './compare-routes.ts';
import { conversationRoutes } from './conversation-routes.ts';
import type { FakeToken, FakeUser } from './fake-github-records.ts';
import { FakeGitHubState } from './fake-github-state.ts';
import { FakeGitHubViolationError } from './fake-github-violation-error.ts';
import { GitBacking } from './git-backing.ts';
import { graphqlReply } from './graphql-route.ts';
import { OpenApiValidator, type RouteMatch } from './openapi-validator.ts';
import { pullReviewRoutes } from './pull-review-routes.ts';
import { pullRoutes } from './pull-routes.ts';
import type { RenderContext } from './render.ts';
import { repoRoutes } from './repo-routes.ts';
import { reviewCommentRoutes } from './review-comment-routes.ts';
import { errorReply, type RouteHandler, type RouteReply } from './route-kit.ts';

export type {
  FakeCheckRun,
  FakeComment,
  FakePull,
  FakeReaction,
  FakeRepo,
  FakeReview,
  FakeReviewComment,
  FakeRole,
  FakeToken,
  FakeUser,
  FakeWorkflowRun,
  RepoRef,
} from './fake-github-records.ts';
export type { FakeGitHubState } from './fake-github-state.ts';
export { FakeGitHubViolationError } from './fake-github-violation-error.ts';

/** Options of `startFakeGitHub`. */
export interface FakeGitHubOptions {
  /** Accepted tokens and whose they are; when given, any other token gets 401 `Bad credentials`. Default: any token, acting as `agent-mux[bot]`. */
  tokens?: Record<string, FakeToken>;
  /** Back branch refs and file contents with a real bare repository (`git init --bare`). */
  git?: { bareRepo: string };
  /** Every answer is held back this long (GitHub's own latency, for benchmarks). Default 0. */
  latencyMs?: number;
}

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  /** The path as sent (a `/api/v3` prefix kept), without the query. */
  path: string;
  query: Record<string, string | string[]>;
  /** Raw headers (authorization included). */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, raw text, or undefined when empty. */
  body: unknown;
  status: number;
  /** The operation matched, e.g. `issues/create-comment` (undefined for an unknown route). */
  operationId: string | undefined;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

/** A fault to inject: the next matching request(s) get this response instead of the real one. */
export interface FaultRoute {
  /** HTTP method (case-insensitive), or `*`. */
  method: string;
  /** A RegExp tested on the path (prefix stripped), or a string equal to the path or to the operation's template. */
  path: RegExp | string;
}

export interface FaultResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A running fake GitHub. */
export interface FakeGitHub {
  /** The API base URL, `http://127.0.0.1:PORT` (`${url}/api/v3` works too). */
  readonly url: string;
  readonly state: FakeGitHubState;
  readonly requests: RecordedRequest[];
  readonly violations: string[];
  /** The validator (its `stats` tell how long compiling took). */
  readonly validator: OpenApiValidator;
  /** Throws a `FakeGitHubViolationError` listing every violation, if any. */
  assertNoViolations(): void;
  /** Answers the next `times` requests matching `route` with `response` (after validating the request). */
  failNext(route: FaultRoute, response: FaultResponse, times?: number): void;
  /** Drops every injected fault not yet used up (an outage that ends). */
  clearFaults(): void;
  /** Holds every later answer back `ms` (0: none). */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

const routes: Record<string, RouteHandler> = {
  ...repoRoutes,
  ...conversationRoutes,
  ...checkRunRoutes,
  ...pullRoutes,
  ...pullReviewRoutes,
  ...compareRoutes,
  ...reviewCommentRoutes,
  ...appRoutes,
};

/** The identity of requests when no `tokens` were given. */
export const defaultIdentity: FakeToken = { login: 'agent-mux[bot]', type: 'Bot' };

const rateLimit = 5000;

function looksLikeJwt(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/**
 * Starts a stand-in for api.github.com on 127.0.0.1 (random port) that keeps state and checks every
 * request and every response against GitHub's published REST description.
 */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const validator = new OpenApiValidator();
  const git = options.git === undefined ? undefined : new GitBacking(options.git.bareRepo);
  const state = new FakeGitHubState(git);
  const strictTokens = options.tokens !== undefined;
  for (const [token, identity] of Object.entries(options.tokens ?? {})) state.tokens.set(token, identity);
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const faults: { route: FaultRoute; response: FaultResponse; remaining: number }[] = [];
  const render: RenderContext = { document: validator.document, state, api: '' };

  const identityOf = (token: string): FakeUser | undefined => {
    const known = state.tokens.get(token);
    if (known !== undefined) return state.addUser(known);
    return strictTokens ? undefined : state.addUser(defaultIdentity);
  };

  const takeFault = (method: string, path: string, match: RouteMatch): FaultResponse | undefined => {
    const fault = faults.find(
      ({ route, remaining }) =>
        remaining > 0 &&
        (route.method === '*' || route.method.toUpperCase() === method) &&
        (typeof route.path === 'string' ? route.path === path || route.path === match.template : route.path.test(path)),
    );
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    return fault.response;
  };

  const handle = async (
    request: IncomingMessage,
  ): Promise<{ reply: RouteReply; record: RecordedRequest; counted: boolean }> => {
    const url = new URL(request.url ?? '/', render.api);
    const method = (request.method ?? 'GET').toUpperCase();
    const body = await readBody(request);
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: queryOf(url),
      headers: { ...request.headers },
      body,
      status: 0,
      operationId: undefined,
      at: Date.now(),
    };
    const label = `${method} ${url.pathname}${url.search}`;
    const path = OpenApiValidator.stripPrefix(url.pathname);
    if (method === 'POST' && path === '/graphql') {
      // GraphQL is not in the REST description: its one query agent-mux sends is answered here.
      const token = /^(?:token|bearer)\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
      const caller = token === undefined ? undefined : identityOf(token);
      if (caller === undefined) {
        return { reply: errorReply(401, 'Requires authentication'), record, counted: true };
      }
      const { reply, unsupported } = graphqlReply(state, body, caller.login);
      if (unsupported !== undefined) violations.push(`${label}: ${unsupported}`);
      record.operationId = 'graphql';
      return { reply, record, counted: true };
    }
    const match = validator.match(method, url.pathname);
    if (match === undefined || 'methodNotAllowed' in match) {
      violations.push(`${label}: no operation of the REST description matches this ${match ? 'method' : 'path'}`);
      return { reply: errorReply(404, 'Not Found'), record, counted: true };
    }
    record.operationId = match.operationId;
    const where = `${label} (${match.operationId})`;

    const authorization = String(request.headers.authorization ?? '');
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(authorization)?.[1];
    if (token === undefined) return { reply: errorReply(401, 'Requires authentication'), record, counted: true };
    const needsJwt = jwtOperations.has(match.operationId);
    if (needsJwt !== looksLikeJwt(token)) {
      const message = needsJwt
        ? 'A JSON web token could not be decoded'
        : 'A JSON web token was sent where an installation or user token is required';
      return { reply: errorReply(401, message), record, counted: true };
    }
    const identity = needsJwt ? state.addUser({ login: `${state.app.slug}[bot]`, type: 'Bot' }) : identityOf(token);
    if (identity === undefined) return { reply: errorReply(401, 'Bad credentials'), record, counted: true };

    const check = validator.validateRequest(match, record.query, body);
    if (check.pathErrors.length > 0) {
      violations.push(`${where}: ${check.pathErrors.join('; ')}`);
      return { reply: errorReply(404, 'Not Found'), record, counted: true };
    }
    const invalid = [...check.queryErrors, ...check.bodyErrors];
    if (invalid.length > 0) {
      violations.push(`${where}: ${invalid.join('; ')}`);
      const reply = errorReply(422, `Invalid request.\n\n${invalid.join('\n')}`);
      return { reply, record, counted: true };
    }

    const fault = takeFault(method, path, match);
    if (fault !== undefined) {
      const reply: RouteReply = {
        status: fault.status,
        body: fault.body ?? { message: `injected ${fault.status}`, documentation_url: 'https://docs.github.com/rest' },
      };
      if (fault.headers !== undefined) reply.headers = fault.headers;
      return { reply, record, counted: true };
    }

    const handler = routes[match.operationId];
    if (handler === undefined) {
      violations.push(`${where}: the fake does not implement this operation`);
      return { reply: errorReply(501, `fake GitHub: ${match.operationId} is not implemented`), record, counted: true };
    }
    let reply: RouteReply;
    try {
      reply = await handler({ state, render, params: check.params, query: check.query, body, identity, url });
    } catch (error) {
      violations.push(`${where}: the fake crashed: ${error instanceof Error ? error.stack : String(error)}`);
      return { reply: errorReply(500, 'fake GitHub crashed'), record, counted: true };
    }
    const responseErrors = validator.validateResponse(match, reply.status, reply.body);
    if (responseErrors.length > 0) {
      violations.push(`${where}: the fake's response does not validate: ${responseErrors.join('; ')}`);
    }
    if (method === 'GET' && reply.status === 200) {
      const etag = `W/"${createHash('sha1').update(JSON.stringify(reply.body)).digest('hex')}"`;
      reply.headers = { ...reply.headers, etag };
      if (request.headers['if-none-match'] === etag) {
        return { reply: { status: 304, headers: { etag } }, record, counted: false };
      }
    }
    return { reply, record, counted: true };
  };

  const respond = (response: ServerResponse, reply: RouteReply, counted: boolean): void => {
    if (counted) state.rateLimitedRequests += 1;
    const headers: Record<string, string> = {
      'x-github-request-id': randomUUID(),
      'x-github-media-type': 'github.v3; format=json',
      'x-ratelimit-limit': String(rateLimit),
      'x-ratelimit-remaining': String(Math.max(rateLimit - state.rateLimitedRequests, 0)),
      'x-ratelimit-used': String(state.rateLimitedRequests),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
      ...reply.headers,
    };
    if (reply.body === undefined || reply.status === 304 || reply.status === 204) {
      response.writeHead(reply.status, headers).end();
      return;
    }
    const text = JSON.stringify(reply.body);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(text));
    response.writeHead(reply.status, headers).end(text);
  };

  let latencyMs = options.latencyMs ?? 0;
  const server = createServer((request, response) => {
    const held = latencyMs > 0 ? new Promise((resolve) => setTimeout(resolve, latencyMs)) : undefined;
    handle(request).then(
      async ({ reply, record, counted }) => {
        record.status = reply.status;
        requests.push(record);
        await held;
        respond(response, reply, counted);
      },
      (error: unknown) => {
        violations.push(`${request.method} ${request.url}: the fake failed: ${String(error)}`);
        respond(response, errorReply(500, 'fake GitHub failed'), true);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  render.api = url;

  return {
    url,
    state,
    requests,
    violations,
    validator,
    assertNoViolations() {
      if (violations.length > 0) throw new FakeGitHubViolationError([...violations]);
    },
    failNext(route, response, times = 1) {
      faults.push({ route, response, remaining: times });
    },
    clearFaults() {
      faults.splice(0);
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
