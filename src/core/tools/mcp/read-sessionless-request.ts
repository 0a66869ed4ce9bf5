import type { IncomingMessage } from 'node:http';

/** The largest body a request without a session may have (the SDK's own limit, 4 MB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What a POST without an `mcp-session-id` carried. */
export type SessionlessRequest =
  /** A JSON-RPC message (or batch) for the SDK transport, parsed once here. */
  | { kind: 'message'; body: unknown }
  /**
   * A `server/discover` probe (MCP's stateless discovery, 2026-07-28): Claude Code sends it before
   * `initialize` and takes a JSON-RPC -32601 as "a pre-2026-07-28 server, initialize as usual".
   */
  | { kind: 'discover'; id: string | number | null }
  | { kind: 'invalid'; status: 400 | 413; code: number; message: string };

/**
 * Reads and parses the body of a session-less POST, so that a discovery probe is answered without
 * building a session (its own SDK server and transport) that would only refuse it.
 */
export async function readSessionlessRequest(req: IncomingMessage): Promise<SessionlessRequest> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      return {
        kind: 'invalid',
        status: 413,
        code: -32000,
        message: `request body larger than ${MAX_BODY_BYTES} bytes`,
      };
    }
    chunks.push(buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return { kind: 'invalid', status: 400, code: -32700, message: `Parse error: ${(error as Error).message}` };
  }
  if (isRecord(body) && body.method === 'server/discover') {
    const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
    return { kind: 'discover', id };
  }
  return { kind: 'message', body };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
