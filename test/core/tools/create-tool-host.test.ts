import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type EventDraft, parseAgentEvent } from '../../../src/core/events/index.ts';
import type { ApprovalChannel } from '../../../src/core/tools/approval-channel.ts';
import { createToolHost, type ToolHostOptions } from '../../../src/core/tools/create-tool-host.ts';
import { createMemoryApprovalChannel } from '../../../src/core/tools/memory-approval-channel.ts';
import type { PermissionPolicy } from '../../../src/core/tools/permission-policy.ts';
import { ToolDefinitionError } from '../../../src/core/tools/tool-definition-error.ts';
import { defineTool } from '../../../src/core/tools/tool-registry.ts';

const writeTool = defineTool({
  name: 'write_file',
  description: 'writes',
  input: z.object({ path: z.string(), content: z.string().default('') }),
  handler: async (input, ctx) => {
    ctx.emit({ type: 'file_output', fileName: input.path, path: input.path });
    return `wrote ${input.path}`;
  },
});
const bashTool = defineTool({
  name: 'bash',
  description: 'runs',
  input: z.object({ command: z.string() }),
  handler: async (input) => {
    if (input.command === 'explode') throw new Error('kaboom');
    return { ran: input.command };
  },
});

function setup(overrides: Partial<ToolHostOptions> = {}) {
  const events: EventDraft[] = [];
  const host = createToolHost({
    runId: 'run-1',
    workspacePath: '/nonexistent',
    tools: [writeTool, bashTool],
    emit: (draft) => events.push(draft),
    task: { prompt: 'do it' },
    ...overrides,
  });
  return { host, events, types: () => events.map((e) => e.type) };
}

const askAll: PermissionPolicy = { default: 'ask' };
const allowAll: PermissionPolicy = { default: 'allow' };

describe('createToolHost', () => {
  it('lists tools with JSON Schema inputs', () => {
    const { host } = setup();
    const list = host.list();
    expect(list.map((t) => t.name)).toEqual(['write_file', 'bash']);
    expect(list[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(list[0]?.inputSchema).not.toHaveProperty('$schema');
  });

  it('refuses duplicate tool names when created', () => {
    expect(() => setup({ tools: [bashTool, bashTool] })).toThrow(ToolDefinitionError);
  });

  it('names the known tools for an unknown one', async () => {
    const { host } = setup({ policy: allowAll });
    await expect(host.call('delete_repo', {})).resolves.toEqual({
      ok: false,
      error: 'unknown tool "delete_repo"; known tools: write_file, bash',
    });
  });

  it('names the invalid field', async () => {
    const { host } = setup({ policy: allowAll });
    const result = await host.call('write_file', { path: 3 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^invalid input for write_file: path: expected string/);
    const missing = await host.call('bash', undefined);
    expect(!missing.ok && missing.error).toMatch(/^invalid input for bash: command: expected string/);
  });

  it('runs allowed tools with parsed input and turns handler errors into results', async () => {
    const { host, events } = setup({ policy: allowAll });
    await expect(host.call('write_file', { path: 'a.txt' })).resolves.toEqual({ ok: true, value: 'wrote a.txt' });
    await expect(host.call('bash', { command: 'explode' })).resolves.toEqual({ ok: false, error: 'kaboom' });
    expect(events).toEqual([{ type: 'file_output', fileName: 'a.txt', path: 'a.txt' }]);
  });

  it('returns a deny rule as a tool error with its reason, without asking', async () => {
    const approvals = createMemoryApprovalChannel();
    const { host, events } = setup({
      approvals,
      policy: {
        rules: [{ tool: 'bash', decision: 'deny', when: { command: 'rm *' }, reason: 'deleting is not allowed' }],
      },
    });
    await expect(host.call('bash', { command: 'rm -rf /' })).resolves.toEqual({
      ok: false,
      error: 'permission denied for bash: deleting is not allowed',
    });
    const unexplained = setup({ policy: { default: 'deny' } });
    const result = await unexplained.host.call('bash', { command: 'ls' });
    expect(!result.ok && result.error).toBe("permission denied for bash: the policy's default denies");
    expect(events).toEqual([]);
    expect(approvals.pending()).toEqual([]);
  });

  it('asks, and runs once approved, with events in order', async () => {
    const approvals = createMemoryApprovalChannel({
      onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'approve', scope: 'once', by: 'alice' }),
    });
    const { host, events } = setup({ approvals, policy: askAll, createApprovalId: () => 'ap-1' });
    await expect(host.call('write_file', { path: 'x.md' }, { toolCallId: 'call-1' })).resolves.toEqual({
      ok: true,
      value: 'wrote x.md',
    });
    expect(events).toEqual([
      {
        type: 'approval_request',
        approvalId: 'ap-1',
        toolName: 'write_file',
        input: { path: 'x.md', content: '' },
        reason: "the policy's default asks before running it",
        toolCallId: 'call-1',
      },
      { type: 'approval_granted', approvalId: 'ap-1', scope: 'once', by: 'alice' },
      { type: 'file_output', fileName: 'x.md', path: 'x.md' },
    ]);
    for (const draft of events) parseAgentEvent({ ...draft, runId: 'run-1', agent: 'test', timestamp: 1 });
  });

  it('gives approvals short ids (8 characters, lower case), a new one per question', async () => {
    const approvals = createMemoryApprovalChannel({
      onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'approve', scope: 'once', by: 'alice' }),
    });
    const { host, events } = setup({ approvals, policy: askAll });
    await host.call('write_file', { path: 'a.md' });
    await host.call('write_file', { path: 'b.md' });
    const ids = events.flatMap((e) => (e.type === 'approval_request' ? [e.approvalId] : []));
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]{8}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it('asks again after a once approval, not after an always approval (same tool and rule)', async () => {
    let asked = 0;
    let scope: 'once' | 'always' = 'once';
    const approvals: ApprovalChannel = {
      request: async () => {
        asked++;
        return { kind: 'approve', scope };
      },
    };
    const policy: PermissionPolicy = {
      rules: [
        { tool: 'bash', decision: 'deny', when: { command: 'rm *' } },
        { tool: '*', decision: 'ask', reason: 'review every call' },
      ],
    };
    const { host, types } = setup({ approvals, policy });
    await host.call('bash', { command: 'ls' });
    await host.call('bash', { command: 'ls' });
    expect(asked).toBe(2);
    scope = 'always';
    await host.call('bash', { command: 'ls' });
    await expect(host.call('bash', { command: 'pwd' })).resolves.toEqual({ ok: true, value: { ran: 'pwd' } });
    expect(asked).toBe(3);
    // Deny rules still win, and other tools still ask.
    await expect(host.call('bash', { command: 'rm -rf /' })).resolves.toMatchObject({ ok: false });
    await host.call('write_file', { path: 'a' });
    expect(asked).toBe(4);
    expect(types()).toEqual([
      'approval_request',
      'approval_granted',
      'approval_request',
      'approval_granted',
      'approval_request',
      'approval_granted',
      'approval_request',
      'approval_granted',
      'file_output',
    ]);
  });

  it('reports a denial with its reason and does not run the tool', async () => {
    const approvals = createMemoryApprovalChannel({
      onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'deny', reason: 'not today', by: 'bob' }),
    });
    const { host, events } = setup({ approvals, policy: askAll, createApprovalId: () => 'ap-2' });
    await expect(host.call('write_file', { path: 'x' })).resolves.toEqual({
      ok: false,
      error: 'permission denied for write_file: not today',
    });
    expect(events.map((e) => e.type)).toEqual(['approval_request', 'approval_denied']);
    expect(events[1]).toEqual({ type: 'approval_denied', approvalId: 'ap-2', reason: 'not today', by: 'bob' });
  });

  it('denies with timedOut when nobody answers in time', async () => {
    const approvals = createMemoryApprovalChannel();
    const { host, events } = setup({ approvals, policy: askAll, approvalTimeoutMs: 30 });
    const result = await host.call('bash', { command: 'ls' });
    expect(!result.ok && result.error).toBe('permission denied for bash: no decision within 30 ms');
    expect(events[1]).toMatchObject({ type: 'approval_denied', timedOut: true });
    expect(approvals.pending()).toEqual([]);
  });

  it('enforces the timeout even on a channel that never answers', async () => {
    const approvals: ApprovalChannel = { request: () => new Promise(() => {}) };
    const { host, events } = setup({ approvals, policy: askAll, approvalTimeoutMs: 20 });
    await expect(host.call('bash', { command: 'ls' })).resolves.toMatchObject({ ok: false });
    expect(events[1]).toMatchObject({ type: 'approval_denied', timedOut: true });
  });

  it('denies with timedOut when no channel is configured', async () => {
    const { host, events } = setup({ policy: askAll });
    const result = await host.call('bash', { command: 'ls' });
    expect(!result.ok && result.error).toMatch(/^permission denied for bash: no approval channel/);
    expect(events.map((e) => e.type)).toEqual(['approval_request', 'approval_denied']);
    expect(events[1]).toMatchObject({ timedOut: true });
  });

  it('denies a pending approval when the run is aborted, and refuses calls afterwards', async () => {
    const controller = new AbortController();
    const approvals = createMemoryApprovalChannel({ onRequest: () => controller.abort() });
    const { host, events } = setup({ approvals, policy: askAll, signal: controller.signal });
    const result = await host.call('bash', { command: 'ls' });
    expect(!result.ok && result.error).toBe('permission denied for bash: the run was aborted before a decision');
    expect(events[1]).toMatchObject({ type: 'approval_denied' });
    expect(events[1]).not.toMatchObject({ timedOut: true });
    await expect(host.call('bash', { command: 'ls' })).resolves.toEqual({
      ok: false,
      error: 'bash was not run: the run was aborted',
    });
  });

  it('denies when the call signal aborts', async () => {
    const approvals = createMemoryApprovalChannel();
    const { host } = setup({ approvals, policy: askAll });
    const controller = new AbortController();
    const pending = host.call('bash', { command: 'ls' }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    await expect(pending).resolves.toMatchObject({ ok: false });
  });

  it('denies when the channel rejects, and survives a throwing emit', async () => {
    const approvals: ApprovalChannel = { request: async () => Promise.reject(new Error('network down')) };
    const { host } = setup({
      approvals,
      policy: askAll,
      emit: () => {
        throw new Error('sink broken');
      },
    });
    await expect(host.call('bash', { command: 'ls' })).resolves.toEqual({
      ok: false,
      error: 'permission denied for bash: the approval channel failed: network down',
    });
  });
});
