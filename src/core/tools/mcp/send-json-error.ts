import type { ServerResponse } from 'node:http';

/** Answers a request of the MCP server with a JSON-RPC error (`id: null`) and an HTTP status. */
export function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
