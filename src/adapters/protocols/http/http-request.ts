import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RemoteHttpError } from './remote-http-error.ts';

/** TLS material for mutual TLS (PEM contents, not paths). */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  ca?: Buffer;
}

export interface HttpCallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  signal?: AbortSignal;
  tls?: TlsMaterial;
}

/**
 * One HTTP(S) call, the single code path for every ca-http-v1 request (plain, bearer or mTLS).
 * Resolves once the response head is in, with the body unread; no connection is kept alive, so
 * nothing stays open after the body is consumed or destroyed. Rejects with a `RemoteHttpError`
 * without status when the remote cannot be reached.
 */
export function httpCall(url: URL, options: HttpCallOptions): Promise<IncomingMessage> {
  const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
  const headers: Record<string, string> = { ...options.headers };
  if (body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(body.length);
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, {
      method: options.method,
      headers,
      agent: false,
      signal: options.signal,
      ...(options.tls ? { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca } : {}),
    });
    req.on('response', resolve);
    req.on('error', (error) => {
      reject(new RemoteHttpError(`${options.method} ${url.pathname}: ${describe(error)}`, { cause: error }));
    });
    req.end(body);
  });
}

/** Reads a (small) response body as text. */
export async function readBody(response: IncomingMessage): Promise<string> {
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk;
  return text;
}

/** Reads the body as JSON, or undefined when it is not JSON. Never throws. */
export async function readJson(response: IncomingMessage): Promise<unknown> {
  try {
    return JSON.parse(await readBody(response));
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}
