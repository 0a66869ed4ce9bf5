import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { piAdapter } from '../../src/adapters/agents/pi/index.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { startRemoteServer } from '../../src/remote/index.ts';
import { OWNER_FILE, sweepStaleWorkspaces } from '../../src/remote/sweep-stale-workspaces.ts';
import { client, readSse } from './sse-client.ts';

const TOKEN = 'caller-tools-token';
const TOOLS = [
  { name: 'read_file', description: 'read', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'shell', description: 'run', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
];
const offer = (required = true) => ({ extensions: { 'caller-tools': { version: 1, tools: TOOLS, required } } });

let root: string;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-mux-caller-tools-'));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await rm(root, { recursive: true, force: true });
});

async function serve(adapter: Adapter) {
  const server = await startRemoteServer({ adapter, auth: { type: 'bearer', token: TOKEN }, workspaceRoot: root });
  closers.push(() => server.close());
  return client(server.url, TOKEN);
}

/** An adapter that works with its own tools only: it cannot serve the caller's checkout. */
const ownToolsOnly: Adapter = { ...demoAdapter(), id: 'own-tools' };
delete (ownToolsOnly as { callerTools?: unknown }).callerTools;

describe('the caller-tools extension of ca-http-v1', () => {
  it('is accepted for an agent that takes the caller’s tools, and said so in the 201', async () => {
    const api = await serve(demoAdapter());
    const created = await api.create(offer());
    expect(created.status).toBe(201);
    const body = (await created.json()) as { sessionId: string; extensions?: Record<string, unknown> };
    expect(body.extensions).toEqual({ 'caller-tools': { version: 1 } });
    await api.remove(body.sessionId);
  });

  it('refuses with 422 caller_tools_unsupported an agent that would work on a tree of its own, when required', async () => {
    const api = await serve(ownToolsOnly);
    const created = await api.create(offer(true));
    expect(created.status).toBe(422);
    expect(await created.json()).toMatchObject({ error: 'caller_tools_unsupported', message: /own-tools/ });
    expect(await readdir(root)).toEqual([]);
  });

  it('serves it as plain ca-http-v1 when the offer is not required, or there is none (a third-party caller)', async () => {
    const api = await serve(ownToolsOnly);
    for (const body of [offer(false), {}]) {
      const created = await api.create(body);
      expect(created.status).toBe(201);
      const answer = (await created.json()) as { sessionId: string; extensions?: unknown };
      expect(answer.extensions).toBeUndefined();
      await api.remove(answer.sessionId);
    }
  });

  it('relays a served demo run’s calls to the caller, with the model the caller asked for in context', async () => {
    const api = await serve(demoAdapter({ stepDelayMs: 0 }));
    const created = await api.create({ ...offer(), context: { model: 'big-gpu-model' } });
    const { sessionId } = (await created.json()) as { sessionId: string };
    const tools: string[] = [];
    for await (const item of readSse(await api.events(sessionId))) {
      const record = item.data as { type: string; id: string; tool: string };
      if (record.type === 'tool_call') {
        tools.push(record.tool);
        const value = record.tool === 'read_task' ? { prompt: 'hi' } : record.tool === 'list_files' ? [] : {};
        await api.input(sessionId, { type: 'tool_result', id: record.id, ok: true, value });
      }
      if (record.type === 'complete' || record.type === 'failed') break;
    }
    expect(tools[0]).toBe('read_task');
  });

  it('the server sweeps workspaces a killed server left, and keeps a live one’s', async () => {
    const dead = join(root, 'agent-mux-remote-dead');
    const live = join(root, 'agent-mux-remote-live');
    const other = join(root, 'not-ours');
    for (const dir of [dead, live, other]) await mkdir(dir);
    await writeFile(join(dead, OWNER_FILE), '2147483646\n');
    await writeFile(join(live, OWNER_FILE), `${process.pid}\n`);
    expect(await sweepStaleWorkspaces(root)).toEqual([dead]);
    expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
    // startRemoteServer sweeps at start.
    await mkdir(dead);
    await writeFile(join(dead, OWNER_FILE), '2147483646\n');
    await serve(demoAdapter());
    expect(existsSync(dead)).toBe(false);
  });

  it('pi is declared to take the caller’s tools over MCP, with its own off', async () => {
    expect(piAdapter().callerTools).toBe('mcp');
  });
});
