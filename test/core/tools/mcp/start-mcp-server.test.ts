import { access, mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EventDraft, parseAgentEvent } from '../../../../src/core/events/index.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { McpServerError } from '../../../../src/core/tools/mcp/mcp-server-error.ts';
import {
  type McpServerHandle,
  type McpServerOptions,
  startMcpServer,
} from '../../../../src/core/tools/mcp/start-mcp-server.ts';
import {
  createMemoryApprovalChannel,
  type MemoryApprovalChannel,
} from '../../../../src/core/tools/memory-approval-channel.ts';
import type { PermissionPolicy } from '../../../../src/core/tools/permission-policy.ts';
import type { ToolCallOptions, ToolHost } from '../../../../src/core/tools/tool-host.ts';

let base: string;
let workspace: string;
let events: EventDraft[];
let cleanups: (() => Promise<unknown>)[];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'agent-mux-mcp-')));
  workspace = path.join(base, 'ws');
  await mkdir(workspace);
  events = [];
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  for (const draft of events) parseAgentEvent({ ...draft, runId: 'run-1', agent: 'test', timestamp: 1 });
  await rm(base, { recursive: true, force: true });
});

const policy: PermissionPolicy = {
  default: 'deny',
  rules: [
    { tool: 'write_file', decision: 'deny', when: { path: 'secret/**' }, reason: 'secrets are read-only' },
    { tool: 'write_file', decision: 'allow', when: { path: 'src/**' } },
    { tool: 'write_file', decision: 'ask', reason: 'writes outside src need a review' },
    { tool: 'read_task', decision: 'allow' },
  ],
};

function toolHost(approvals?: MemoryApprovalChannel): ToolHost {
  return createToolHost({
    runId: 'run-1',
    workspacePath: workspace,
    tools: builtinTools(),
    policy,
    approvals,
    emit: (draft) => events.push(draft),
    task: { prompt: 'fix it' },
  });
}

async function serve(options: Partial<McpServerOptions> = {}): Promise<McpServerHandle> {
  const server = await startMcpServer({ host: toolHost(), ...options });
  cleanups.push(() => server.close());
  return server;
}

async function connect(server: McpServerHandle, token?: string): Promise<{ client: Client; sessionId: string }> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, sessionId: transport.sessionId ?? '' };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return {
    isError: result.isError === true,
    text: first?.type === 'text' ? first.text : '',
    count: result.content.length,
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('startMcpServer', () => {
  it('serves on 127.0.0.1 and lists the host tools with JSON Schema inputs', async () => {
    const server = await serve();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    const { client } = await connect(server);
    expect(client.getServerVersion()?.name).toBe('agent-mux');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(builtinTools().map((t) => t.name));
    expect(tools.find((t) => t.name === 'write_file')).toMatchObject({
      description: expect.stringContaining('Writes a text file'),
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path', 'content'] },
    });
  });

  it('runs an allowed call and answers its value as JSON text', async () => {
    const { client } = await connect(await serve());
    const result = await call(client, 'write_file', { path: 'src/a.ts', content: 'export {};\n' });
    expect(result).toEqual({ isError: false, text: JSON.stringify({ path: 'src/a.ts', bytes: 11 }), count: 1 });
    expect(await readFile(path.join(workspace, 'src', 'a.ts'), 'utf8')).toBe('export {};\n');
  });

  it('holds a call under an ask rule until the approval channel answers', async () => {
    const approvals = createMemoryApprovalChannel();
    const { client } = await connect(await serve({ host: toolHost(approvals) }));
    let settled = false;
    const pending = call(client, 'write_file', { path: 'notes.md', content: 'hi' }).finally(() => {
      settled = true;
    });
    await until(() => approvals.pending().length === 1, 'the approval request');
    const [request] = approvals.pending();
    expect(request).toMatchObject({
      runId: 'run-1',
      toolName: 'write_file',
      input: { path: 'notes.md', content: 'hi' },
      reason: 'writes outside src need a review',
      toolCallId: expect.any(String),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect(await exists(path.join(workspace, 'notes.md'))).toBe(false);

    approvals.resolve(request!.approvalId, { kind: 'approve', scope: 'once', by: 'alice' });
    await expect(pending).resolves.toMatchObject({ isError: false, text: '{"path":"notes.md","bytes":2}' });
    expect(await readFile(path.join(workspace, 'notes.md'), 'utf8')).toBe('hi');
    expect(events.map((e) => e.type)).toEqual(['approval_request', 'approval_granted', 'file_output']);
  });

  it('answers denials, workspace escapes, invalid input and unknown tools as isError results', async () => {
    const approvals = createMemoryApprovalChannel({
      onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'deny', reason: 'not today', by: 'bob' }),
    });
    const { client } = await connect(await serve({ host: toolHost(approvals) }));
    await expect(call(client, 'write_file', { path: 'secret/key', content: 'x' })).resolves.toEqual({
      isError: true,
      text: 'permission denied for write_file: secrets are read-only',
      count: 1,
    });
    await expect(call(client, 'write_file', { path: 'README.md', content: 'x' })).resolves.toMatchObject({
      isError: true,
      text: 'permission denied for write_file: not today',
    });
    // Allow globs never match `..`, so an escape falls through to the ask rule and its reviewer.
    await expect(call(client, 'write_file', { path: 'src/../../x', content: 'x' })).resolves.toMatchObject({
      isError: true,
      text: 'permission denied for write_file: not today',
    });
    expect(await exists(path.join(base, 'x'))).toBe(false);
    await expect(call(client, 'write_file', { path: 'src/b.ts' })).resolves.toMatchObject({
      isError: true,
      text: expect.stringMatching(/^invalid input for write_file: content: expected string/),
    });
    await expect(call(client, 'delete_repo', {})).resolves.toMatchObject({
      isError: true,
      text: expect.stringMatching(/^unknown tool "delete_repo"; known tools: read_task, /),
    });
  });

  it('refuses a workspace escape that the policy allows', async () => {
    const host = createToolHost({
      runId: 'run-1',
      workspacePath: workspace,
      tools: builtinTools(),
      policy: { default: 'allow' },
      emit: (draft) => events.push(draft),
      task: { prompt: 'fix it' },
    });
    const { client } = await connect(await serve({ host }));
    await expect(call(client, 'write_file', { path: '../x', content: 'x' })).resolves.toMatchObject({
      isError: true,
      text: 'path "../x" is outside the workspace',
    });
    expect(await exists(path.join(base, 'x'))).toBe(false);
  });

  it('passes the session id and JSON-RPC request id as toolCallId, and the client cancellation as the signal', async () => {
    const seen: ToolCallOptions[] = [];
    const host: ToolHost = {
      list: () => [{ name: 'wait', description: 'waits', inputSchema: { type: 'object' } }],
      call: (_name, _input, options = {}) => {
        seen.push(options);
        return new Promise((resolve) =>
          options.signal?.addEventListener('abort', () => resolve({ ok: false, error: 'cancelled' })),
        );
      },
    };
    const { client, sessionId } = await connect(await serve({ host }));
    const abort = new AbortController();
    const pending = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: abort.signal });
    await until(() => seen.length === 1, 'the call');
    expect(seen[0]?.toolCallId).toMatch(new RegExp(`^${sessionId}:\\d+$`));
    abort.abort();
    await expect(pending).rejects.toThrow();
    await until(() => seen[0]?.signal?.aborted === true, 'the cancellation');
  });

  it('keeps toolCallIds distinct across sessions whose clients reuse request ids', async () => {
    const approvals = createMemoryApprovalChannel();
    const server = await serve({ host: toolHost(approvals) });
    const a = await connect(server);
    const b = await connect(server);
    const calls = [
      call(a.client, 'write_file', { path: 'a.md', content: 'a' }),
      call(b.client, 'write_file', { path: 'b.md', content: 'b' }),
    ];
    await until(() => approvals.pending().length === 2, 'both approval requests');
    const ids = approvals.pending().map((request) => request.toolCallId);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${a.sessionId}:\\d+$`)),
        expect.stringMatching(new RegExp(`^${b.sessionId}:\\d+$`)),
      ]),
    );
    const requested = events.filter((e) => e.type === 'approval_request').map((e) => e.toolCallId);
    expect(requested.sort()).toEqual([...ids].sort());
    for (const request of approvals.pending())
      approvals.resolve(request.approvalId, { kind: 'approve', scope: 'once' });
    await expect(Promise.all(calls)).resolves.toMatchObject([{ isError: false }, { isError: false }]);
  });

  describe('approval_prompt', () => {
    function promptServer(approvals: MemoryApprovalChannel, timeoutMs?: number) {
      return serve({
        permissionPrompt: { approvals, runId: 'run-1', emit: (draft) => events.push(draft), timeoutMs },
      });
    }
    const bash = { tool_name: 'Bash', input: { command: 'npm test' }, tool_use_id: 'toolu_1' };

    it('is listed with the input Claude Code sends', async () => {
      const { client } = await connect(await promptServer(createMemoryApprovalChannel()));
      const { tools } = await client.listTools();
      expect(tools.at(-1)).toMatchObject({
        name: 'approval_prompt',
        inputSchema: {
          type: 'object',
          properties: { tool_name: { type: 'string' }, input: { type: 'object' }, tool_use_id: { type: 'string' } },
          required: ['tool_name', 'input'],
        },
      });
    });

    it('answers allow with the input unchanged, once approved', async () => {
      const approvals = createMemoryApprovalChannel();
      const { client } = await connect(await promptServer(approvals));
      let settled = false;
      const pending = call(client, 'approval_prompt', bash).finally(() => {
        settled = true;
      });
      await until(() => approvals.pending().length === 1, 'the approval request');
      const [request] = approvals.pending();
      expect(request).toMatchObject({
        runId: 'run-1',
        toolName: 'Bash',
        input: { command: 'npm test' },
        toolCallId: 'toolu_1',
      });
      expect(request?.approvalId).toMatch(/^[0-9a-hjkmnp-tv-z]{8}$/);
      expect(settled).toBe(false);
      approvals.resolve(request!.approvalId, { kind: 'approve', scope: 'once', by: 'alice' });
      const result = await pending;
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.text)).toEqual({ behavior: 'allow', updatedInput: { command: 'npm test' } });
      expect(events).toEqual([
        {
          type: 'approval_request',
          approvalId: request!.approvalId,
          toolName: 'Bash',
          input: { command: 'npm test' },
          reason: 'the agent asks before running Bash',
          toolCallId: 'toolu_1',
        },
        { type: 'approval_granted', approvalId: request!.approvalId, scope: 'once', by: 'alice' },
      ]);
    });

    it('answers deny with the reason', async () => {
      const approvals = createMemoryApprovalChannel({
        onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'deny', reason: 'no shell today', by: 'bob' }),
      });
      const { client } = await connect(await promptServer(approvals));
      const result = await call(client, 'approval_prompt', bash);
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.text)).toEqual({
        behavior: 'deny',
        message: 'permission denied for Bash: no shell today',
      });
      expect(events.at(-1)).toMatchObject({ type: 'approval_denied', reason: 'no shell today', by: 'bob' });
    });

    it('remembers an always approval for that tool name across sessions', async () => {
      let asked = 0;
      const approvals = createMemoryApprovalChannel({
        onRequest: (r) => {
          asked++;
          approvals.resolve(r.approvalId, { kind: 'approve', scope: 'always' });
        },
      });
      const server = await promptServer(approvals);
      const first = await connect(server);
      const second = await connect(server);
      await call(first.client, 'approval_prompt', bash);
      const again = await call(second.client, 'approval_prompt', { tool_name: 'Bash', input: { command: 'ls' } });
      expect(JSON.parse(again.text)).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' } });
      await call(first.client, 'approval_prompt', { tool_name: 'Edit', input: { file_path: 'a' } });
      expect(asked).toBe(2);
    });

    it("allows this server's own tools at once: the host applies the policy to them", async () => {
      const approvals = createMemoryApprovalChannel();
      const { client } = await connect(await promptServer(approvals));
      const result = await call(client, 'approval_prompt', {
        tool_name: 'mcp__agent-mux__write_file',
        input: { path: 'a', content: '' },
      });
      expect(JSON.parse(result.text)).toEqual({ behavior: 'allow', updatedInput: { path: 'a', content: '' } });
      expect(approvals.pending()).toEqual([]);
      expect(events).toEqual([]);
    });

    it('denies when no decision comes in time, and names invalid fields', async () => {
      const { client } = await connect(await promptServer(createMemoryApprovalChannel(), 50));
      const late = await call(client, 'approval_prompt', bash);
      expect(JSON.parse(late.text)).toEqual({
        behavior: 'deny',
        message: 'permission denied for Bash: no decision within 50 ms',
      });
      expect(events.at(-1)).toMatchObject({ type: 'approval_denied', timedOut: true });
      await expect(call(client, 'approval_prompt', { input: {} })).resolves.toMatchObject({
        isError: true,
        text: expect.stringMatching(/^invalid input for approval_prompt: tool_name: expected string/),
      });
    });

    it('refuses to start when the host already has an approval_prompt tool', async () => {
      const host: ToolHost = {
        list: () => [{ name: 'approval_prompt', description: '', inputSchema: { type: 'object' } }],
        call: async () => ({ ok: true, value: null }),
      };
      const approvals = createMemoryApprovalChannel();
      await expect(startMcpServer({ host, permissionPrompt: { approvals, runId: 'r' } })).rejects.toThrow(
        McpServerError,
      );
    });
  });

  it('requires the bearer token when one is set', async () => {
    const server = await serve({ token: 's3cret' });
    const anonymous = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = new Client({ name: 'intruder', version: '1' });
    await expect(
      wrong.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: 'Bearer guess' } },
        }),
      ),
    ).rejects.toThrow();
    const { client } = await connect(server, 's3cret');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const server = await serve();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(server.url, { method: 'POST', headers: { host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('serves two clients at once in separate sessions', async () => {
    const approvals = createMemoryApprovalChannel();
    const server = await serve({ host: toolHost(approvals) });
    const a = await connect(server);
    const b = await connect(server);
    expect(a.sessionId).not.toBe('');
    expect(b.sessionId).not.toBe(a.sessionId);
    const held = call(a.client, 'write_file', { path: 'held.md', content: 'a' });
    await until(() => approvals.pending().length === 1, 'the approval request');
    await expect(call(b.client, 'write_file', { path: 'src/b.ts', content: 'b' })).resolves.toMatchObject({
      isError: false,
    });
    approvals.resolve(approvals.pending()[0]!.approvalId, { kind: 'approve', scope: 'once' });
    await expect(held).resolves.toMatchObject({ isError: false });
    await a.client.close();
    await expect(call(b.client, 'read_task', {})).resolves.toMatchObject({
      isError: false,
      text: expect.stringContaining('fix it'),
    });
  });

  it("answers Claude Code's server/discover probe with method-not-found, opening no session, then initializes", async () => {
    const server = await serve();
    const post = (body: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    // What claude 2.1.330 sends first (MCP 2026-07-28 discovery), before `initialize`.
    const probe = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'server-discover-probe-1',
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
    );
    expect(probe.status).toBe(200);
    expect(probe.headers.get('mcp-session-id')).toBeNull();
    expect(await probe.json()).toEqual({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      error: { code: -32601, message: 'Method not found' },
    });
    const garbled = await post('{"jsonrpc":');
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toMatchObject({ error: { code: -32700 } });
    // The body read for the probe is handed to the SDK: a plain initialize still opens a session.
    const { client, sessionId } = await connect(server);
    expect(sessionId).not.toBe('');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('rejects requests for an unknown session with 404', async () => {
    const server = await serve();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });

  it('close() cancels open approvals and frees the port', async () => {
    const approvals = createMemoryApprovalChannel();
    const server = await startMcpServer({ host: toolHost(approvals) });
    const { client } = await connect(server);
    const held = client.callTool({ name: 'write_file', arguments: { path: 'late.md', content: 'x' } });
    held.catch(() => {});
    await until(() => approvals.pending().length === 1, 'the approval request');
    await server.close();
    await server.close();
    expect(approvals.pending()).toEqual([]);
    expect(await exists(path.join(workspace, 'late.md'))).toBe(false);
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(server.port, '127.0.0.1', () => probe.close(() => resolve()));
    });
  });

  it('rejects with McpServerError when the port is taken', async () => {
    const first = await serve();
    const error = await startMcpServer({ host: toolHost(), port: first.port }).catch((e: unknown) => e);
    expect(McpServerError.isInstance(error)).toBe(true);
    expect((error as McpServerError).cause).toMatchObject({ code: 'EADDRINUSE' });
  });
});
