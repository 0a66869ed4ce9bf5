import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type GenericHttpAdapterConfigInput,
  genericHttpAdapter,
  genericHttpAdapterConfigSchema,
} from '../../../../src/adapters/protocols/generic-http/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-generic-http-'));
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  servers = [];
});

/** A stand-in endpoint on 127.0.0.1 that records each request and answers with `reply`. */
const serve = async (reply: (res: ServerResponse, seen: Seen) => void) => {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      reply(res, request);
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/chat`, seen };
};
const run = async (config: Omit<GenericHttpAdapterConfigInput, 'type'>, prompt = 'Hello, agent!') => {
  const adapter = genericHttpAdapter('llm-proxy', { type: 'generic-http', ...config });
  const result = await collectRun(startRun({ adapter, request: { prompt, cwd }, graceMs: 500 }));
  expectWellFormedStream(result.events, 'llm-proxy');
  return result;
};
const text = (events: AgentEvent[]) => events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');

describe('genericHttpAdapter', () => {
  it('sends the prompt as the raw body and returns the response body as output', async () => {
    const { url, seen } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('Hello! ');
      res.end('How can I help?');
    });
    const { events, end } = await run({ base_url: url });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat', body: 'Hello, agent!' });
    expect(seen[0]?.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(end.reason).toBe('completed');
    expect(end.output).toBe('Hello! How can I help?');
    expect(text(events)).toBe('Hello! How can I help?');
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: 'Hello! How can I help?' });
  });

  it('uses the configured method and headers, which override the default content type', async () => {
    const { url, seen } = await serve((res) => res.end('{"ok":true}'));
    const { end } = await run({
      base_url: url,
      method: 'put',
      headers: { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json', 'X-Agent': 'mux' },
    });
    expect(end.reason).toBe('completed');
    expect(end.output).toBe('{"ok":true}');
    expect(seen[0]?.method).toBe('PUT');
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(seen[0]?.headers['x-agent']).toBe('mux');
  });

  it('fails with the status and an excerpt of the body on a non-2xx answer', async () => {
    const { url } = await serve((res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream   exploded\n'.repeat(100));
    });
    const { events, end } = await run({ base_url: url });
    expect(end.reason).toBe('failed');
    expect(end.message).toMatch(/^HTTP 502: upstream exploded upstream exploded/);
    expect((end.message ?? '').length).toBeLessThan(600);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'remote_unavailable' });
    expect(events.some((e) => e.type === 'message_start')).toBe(false);
  });

  it('ends timeout when no complete answer comes within the timeout', async () => {
    const { url } = await serve((res) => {
      res.writeHead(200);
      res.write('partial ');
    });
    const { events, end } = await run({ base_url: url, timeout: '200ms' });
    expect(end.reason).toBe('timeout');
    expect(end.message).toContain('timeout');
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'timeout' });
    expect(text(events)).toBe('partial ');
  });

  it('aborts the request when the run is stopped', async () => {
    let closed: Promise<void> | undefined;
    const { url } = await serve((res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()));
      res.writeHead(200);
      res.write('streaming…');
    });
    const adapter = genericHttpAdapter('llm-proxy', { type: 'generic-http', base_url: url });
    const handle = startRun({ adapter, request: { prompt: 'go', cwd }, graceMs: 500 });
    const events: AgentEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'text_delta') handle.abort('user stop');
    }
    expectWellFormedStream(events, 'llm-proxy');
    expect((await handle.result).reason).toBe('aborted');
    await closed;
  });

  it('parses the configuration with the defaults of the profile', () => {
    expect(
      genericHttpAdapterConfigSchema.parse({ type: 'generic-http', base_url: 'https://api.example.com/v1' }),
    ).toEqual({
      type: 'generic-http',
      base_url: 'https://api.example.com/v1',
      method: 'POST',
      headers: {},
      timeout: '60s',
    });
    expect(() => genericHttpAdapterConfigSchema.parse({ type: 'generic-http', base_url: 'ftp://x' })).toThrow();
    expect(() =>
      genericHttpAdapterConfigSchema.parse({ type: 'generic-http', base_url: 'http://x', timeout: 'soon' }),
    ).toThrow();
  });
});
