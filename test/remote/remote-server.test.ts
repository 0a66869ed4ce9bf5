import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { processAdapter } from '../../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { type RemoteServerHandle, type RemoteServerOptions, startRemoteServer } from '../../src/remote/index.ts';
import { client, readSse, type SseItem } from './sse-client.ts';

const TOKEN = 'test-token-123';
const referenceAgent = processAdapter('reference-agent', {
  binary: process.execPath,
  args: [resolve(import.meta.dirname, '../../examples/process-agent.mjs')],
});
/** Reports its pid, then waits until it is killed. */
const sleeper = processAdapter('sleeper', {
  binary: process.execPath,
  args: [
    '-e',
    'process.stdout.write(JSON.stringify({type:"progress",summary:"pid:"+process.pid})+"\\n"); setInterval(() => {}, 1000);',
  ],
});

let root: string;
const servers: RemoteServerHandle[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'remote-server-test-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(root, { recursive: true, force: true });
});

async function serve(adapter: Adapter, options: Partial<RemoteServerOptions> = {}) {
  const server = await startRemoteServer({
    adapter,
    auth: { type: 'bearer', token: TOKEN },
    workspaceRoot: root,
    graceMs: 200,
    ...options,
  });
  servers.push(server);
  return { server, api: client(server.url, TOKEN) };
}

async function createSession(api: ReturnType<typeof client>, body: Record<string, unknown> = {}): Promise<string> {
  const response = await api.create(body);
  expect(response.status).toBe(201);
  const { sessionId } = (await response.json()) as { sessionId: string };
  expect(sessionId).toEqual(expect.any(String));
  return sessionId;
}

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startRemoteServer', () => {
  it('runs the process adapter: relays its tool calls to the caller and streams Process-protocol records', async () => {
    const { api } = await serve(referenceAgent);
    const id = await createSession(api);
    const seen: SseItem[] = [];
    const toolCalls: string[] = [];
    for await (const item of readSse(await api.events(id))) {
      seen.push(item);
      const record = item.data as { type: string; id: string; tool: string; args: unknown };
      expect(record.type).toBe(item.event);
      if (item.event === 'tool_call') {
        toolCalls.push(record.tool);
        const value = record.tool === 'read_task' ? { prompt: 'say hello' } : { written: true };
        const accepted = await api.input(id, { type: 'tool_result', id: record.id, ok: true, value });
        expect(accepted.status).toBe(202);
      }
    }
    expect(toolCalls).toEqual(['read_task', 'write_file']);
    expect(seen.map((item) => item.event)).toEqual([
      'progress',
      'tool_call',
      'progress',
      'tool_call',
      'comment',
      'complete',
    ]);
    expect(seen[1]?.data).toMatchObject({ type: 'tool_call', tool: 'read_task', args: {} });
    expect(seen[2]?.data).toMatchObject({
      type: 'progress',
      summary: 'working on: say hello',
      attempted: ['read_task'],
      cost: { inputTokens: 1000, outputTokens: 150 },
    });
    expect(seen[3]?.data).toMatchObject({ args: { path: 'hello.txt', content: 'say hello\n' } });
    expect(seen[4]?.data).toEqual({ type: 'comment', text: 'Wrote hello.txt.', mentions: [] });
    expect(seen[5]?.data).toMatchObject({
      type: 'complete',
      output: { wrote: true },
      cost: { inputTokens: 1000, outputTokens: 150, usd: expect.any(Number) },
    });
    // The finished session is removed once its final record is delivered, with its workspace.
    await vi.waitFor(async () => expect((await api.remove(id)).status).toBe(404));
    await vi.waitFor(async () => expect(await readdir(root)).toEqual([]));
  });

  it('runs the demo adapter (a session adapter) and reports a failed tool as the agent sees it', async () => {
    const { api } = await serve(demoAdapter({ stepDelayMs: 1 }));
    const id = await createSession(api);
    const events: SseItem[] = [];
    for await (const item of readSse(await api.events(id))) {
      events.push(item);
      const record = item.data as { type: string; id: string; tool: string };
      if (item.event !== 'tool_call') continue;
      const reply =
        record.tool === 'read_file'
          ? { type: 'tool_result', id: record.id, ok: true, value: { content: 'Teh projcet.\n' } }
          : record.tool === 'write_file'
            ? { type: 'tool_result', id: record.id, ok: false, error: 'read-only workspace' }
            : { type: 'tool_result', id: record.id, ok: true, value: {} };
      expect((await api.input(id, reply)).status).toBe(202);
    }
    const tools = events.filter((e) => e.event === 'tool_call').map((e) => (e.data as { tool: string }).tool);
    expect(tools).toEqual(['read_task', 'list_files', 'read_file', 'write_file']);
    const summaries = events.filter((e) => e.event === 'progress').map((e) => (e.data as { summary: string }).summary);
    expect(summaries).toContain('Reading the workspace');
    expect(summaries).toContain('I could not write README.md: read-only workspace');
    const last = events.at(-1);
    expect(last?.event).toBe('complete');
    expect(last?.data).toMatchObject({
      type: 'complete',
      output: { changedFiles: [] },
      cost: { inputTokens: 1200, outputTokens: 180 },
    });
  });

  it('answers 401 without or with a wrong bearer token', async () => {
    const { server } = await serve(referenceAgent);
    for (const api of [client(server.url), client(server.url, 'wrong-token')]) {
      const response = await api.create();
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
    }
  });

  it('rejects input with a stale fencing token (409) and 404s unknown sessions', async () => {
    const { api } = await serve(sleeper);
    const id = await createSession(api);
    const stale = await api.input(id, { type: 'budget_update', remaining: { usd: 1 } }, 3);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({
      error: 'fencing_token_stale',
      message: 'fencing token 3 is older than 4',
    });
    expect((await api.input(id, { type: 'budget_update', remaining: { usd: 1 } }, 5)).status).toBe(202);
    const older = await api.input(id, { type: 'budget_update', remaining: { usd: 1 } }, 4);
    expect(await older.json()).toMatchObject({ message: 'fencing token 4 is older than 5' });
    expect((await api.input(id, { type: 'nonsense' }, 5)).status).toBe(400);
    expect((await api.input('ses_unknown', { type: 'shutdown', reason: 'cancelled' })).status).toBe(404);
    expect((await api.remove('ses_unknown')).status).toBe(404);
  });

  it('answers 503 with Retry-After when the session limit is reached', async () => {
    const { api } = await serve(sleeper, { maxSessions: 1 });
    const id = await createSession(api);
    const busy = await api.create();
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await busy.json()).toMatchObject({ error: 'busy' });
    expect((await api.remove(id)).status).toBe(204);
    await createSession(api);
  });

  it('DELETE stops the run and leaves no process behind', async () => {
    const { api } = await serve(sleeper);
    const id = await createSession(api);
    const stream = readSse(await api.events(id));
    const first = await stream.next();
    const summary = (first.value as SseItem).data as { summary: string };
    const pid = Number(summary.summary.replace('pid:', ''));
    expect(pidAlive(pid)).toBe(true);
    expect((await api.remove(id)).status).toBe(204);
    expect(pidAlive(pid)).toBe(false);
    const rest: SseItem[] = [];
    for await (const item of stream) rest.push(item);
    expect(rest.at(-1)).toMatchObject({ event: 'failed', data: { type: 'failed', reason: 'aborted' } });
    expect((await api.remove(id)).status).toBe(404);
  });

  it('shutdown input stops the run, which ends failed', async () => {
    const { api } = await serve(referenceAgent);
    const id = await createSession(api);
    const events: SseItem[] = [];
    for await (const item of readSse(await api.events(id))) {
      events.push(item);
      if (item.event === 'tool_call') {
        expect((await api.input(id, { type: 'shutdown', reason: 'cancelled' })).status).toBe(202);
      }
    }
    expect(events.at(-1)).toMatchObject({ event: 'failed', data: { type: 'failed', reason: 'aborted' } });
  });

  it.each([
    [{ type: 'shutdown', reason: 'lease_expired' }, 'failed', 'lease expired'],
    [{ type: 'budget_update', remaining: { usd: 0 } }, 'aborted', 'budget exceeded'],
  ])('input %o ends the run %s', async (input, reason, details) => {
    const { api } = await serve(referenceAgent);
    const id = await createSession(api);
    const events: SseItem[] = [];
    for await (const item of readSse(await api.events(id))) {
      events.push(item);
      if (item.event === 'tool_call') expect((await api.input(id, input)).status).toBe(202);
    }
    expect(events.at(-1)).toMatchObject({ event: 'failed', data: { reason } });
    expect(events.at(-1)?.data).toMatchObject({ details: expect.stringContaining(details) });
  });

  it('removes a session whose caller went away after idleTimeoutMs', async () => {
    const { api } = await serve(sleeper, { idleTimeoutMs: 50 });
    const id = await createSession(api);
    const abort = new AbortController();
    const stream = readSse(await api.events(id, abort.signal));
    await stream.next();
    abort.abort();
    await stream.return().catch(() => undefined);
    await vi.waitFor(async () => expect((await api.remove(id)).status).toBe(404));
    // The slot is free again and the workspace is gone.
    await vi.waitFor(async () => expect(await readdir(root)).toEqual([]));
  });

  it('sends `: ping` heartbeats on the event stream', async () => {
    const { api } = await serve(sleeper, { heartbeatMs: 10 });
    const id = await createSession(api);
    const abort = new AbortController();
    const response = await api.events(id, abort.signal);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(': ping\n\n')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect(text).toContain(': ping\n\n');
    abort.abort();
    await reader.cancel().catch(() => undefined);
  });

  it('runs a session in the task cwd inside the workspace root and refuses one outside', async () => {
    const { api } = await serve(sleeper);
    const outside = await api.create({ task: { prompt: 'x', cwd: '/' } });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({ error: 'bad_request' });
    expect((await api.create({ task: {} })).status).toBe(400);
    const id = await createSession(api, { task: { prompt: 'x', cwd: '.' } });
    expect((await api.remove(id)).status).toBe(204);
    expect(existsSync(root)).toBe(true);
  });

  it('serves without auth when told to', async () => {
    const server = await startRemoteServer({
      adapter: sleeper,
      auth: { type: 'none' },
      workspaceRoot: root,
      graceMs: 200,
    });
    servers.push(server);
    const api = client(server.url);
    const id = await createSession(api);
    expect((await api.remove(id)).status).toBe(204);
  });
});
