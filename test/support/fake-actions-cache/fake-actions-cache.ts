import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BlobAnswer, blobRoute } from './blob-routes.ts';
import { FakeActionsCacheState } from './fake-actions-cache-state.ts';
import { FakeActionsCacheViolationError } from './fake-actions-cache-violation-error.ts';
import { CACHE_SERVICE, twirpRoute } from './twirp-routes.ts';

export interface FakeActionsCacheRequest {
  method: string;
  /** Path without the query (a signed URL's signature is not kept). */
  path: string;
  status: number;
}

export interface FakeActionsCache {
  /** `ACTIONS_RESULTS_URL`: the service's base URL, with a trailing slash as the runner gives it. */
  url: string;
  /** The variables a runner gives a job for the cache service v2 (`ACTIONS_CACHE_SERVICE_V2` on). */
  env: Record<string, string>;
  state: FakeActionsCacheState;
  requests: FakeActionsCacheRequest[];
  /** Requests the real service or Blob storage would have rejected; a correct client leaves it empty. */
  violations: string[];
  close(): Promise<void>;
}

const ACCOUNT = 'devstoreaccount1';
const CONTAINER = 'actions-cache';
const BLOB_API_VERSION = '2025-01-05';

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * A stand-in for the GitHub Actions cache service v2 (twirp JSON at `ACTIONS_RESULTS_URL`) and the
 * Azure Blob storage its signed URLs point at, answering `@actions/cache` as the real ones do.
 * Request bodies are parsed with the package's generated message types; blob writes accept only
 * what `BlockBlobClient.uploadFile` sends (`Put Blob`, `Put Block`, `Put Block List`).
 */
export async function startFakeActionsCache(): Promise<FakeActionsCache> {
  const state = new FakeActionsCacheState();
  const token = `fake-runtime-${randomUUID()}`;
  const signingKey = randomBytes(32);
  const requests: FakeActionsCacheRequest[] = [];
  const violations: string[] = [];
  let base = '';

  const sign = (blobName: string, sp: string, se: string) =>
    createHmac('sha256', signingKey).update(`${blobName}\n${sp}\n${se}`).digest('base64');
  const signedUrl = (blobName: string, sp: 'r' | 'cw') => {
    const se = new Date(Date.now() + 10 * 60_000).toISOString();
    const query = new URLSearchParams({ sv: BLOB_API_VERSION, se, sr: 'b', sp, sig: sign(blobName, sp, se) });
    return `${base}/${ACCOUNT}/${CONTAINER}/${blobName}?${query}`;
  };
  const checkSignature = (blobName: string, query: URLSearchParams): string => {
    const sp = query.get('sp') ?? '';
    const se = query.get('se') ?? '';
    const given = Buffer.from(query.get('sig') ?? '', 'base64');
    const wanted = Buffer.from(sign(blobName, sp, se), 'base64');
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
      throw new FakeActionsCacheViolationError(403, 'AuthenticationFailed: the signature does not match');
    }
    if (Date.parse(se) < Date.now())
      throw new FakeActionsCacheViolationError(403, 'AuthenticationFailed: signed URL expired');
    return sp;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const twirp = url.pathname.match(/^\/twirp\/([^/]+)\/([^/]+)$/);
    if (twirp) {
      if (req.method !== 'POST' || twirp[1] !== CACHE_SERVICE) {
        throw new FakeActionsCacheViolationError(404, `bad_route: ${req.method} ${url.pathname}`);
      }
      if (req.headers.authorization !== `Bearer ${token}`) {
        throw new FakeActionsCacheViolationError(401, 'unauthenticated: the runtime token is missing or wrong');
      }
      if (!req.headers['content-type']?.startsWith('application/json')) {
        throw new FakeActionsCacheViolationError(400, 'twirp: Content-Type must be application/json');
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new FakeActionsCacheViolationError(400, 'twirp: the body is not JSON');
      }
      const [status, answer] = twirpRoute(twirp[2] ?? '', json, { state, signedUrl });
      sendJson(res, status, answer);
      return status;
    }
    const blob = url.pathname.match(new RegExp(`^/${ACCOUNT}/${CONTAINER}/([^/]+)$`));
    if (!blob?.[1]) throw new FakeActionsCacheViolationError(404, `no route for ${req.method} ${url.pathname}`);
    const permissions = checkSignature(blob[1], url.searchParams);
    const answer: BlobAnswer = blobRoute(
      { method: req.method ?? 'GET', blobName: blob[1], query: url.searchParams, headers: req.headers, body },
      state,
      permissions,
    );
    const clientRequestId = req.headers['x-ms-client-request-id'];
    res.writeHead(answer.status, {
      'x-ms-request-id': randomUUID(),
      'x-ms-version': BLOB_API_VERSION,
      ...(typeof clientRequestId === 'string' ? { 'x-ms-client-request-id': clientRequestId } : {}),
      date: new Date().toUTCString(),
      ...(answer.body === undefined && !answer.headers['content-length'] ? { 'content-length': '0' } : {}),
      ...answer.headers,
    });
    res.end(answer.body);
    return answer.status;
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? '', path, status }),
      (error: unknown) => {
        const status = FakeActionsCacheViolationError.isInstance(error) ? error.status : 500;
        const message = error instanceof Error ? error.message : String(error);
        violations.push(`${req.method} ${path}: ${message}`);
        requests.push({ method: req.method ?? '', path, status });
        if (!res.headersSent)
          sendJson(res, status, { code: status === 404 ? 'bad_route' : 'invalid_argument', msg: message });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    env: { ACTIONS_RESULTS_URL: `${base}/`, ACTIONS_RUNTIME_TOKEN: token, ACTIONS_CACHE_SERVICE_V2: 'True' },
    state,
    requests,
    violations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
