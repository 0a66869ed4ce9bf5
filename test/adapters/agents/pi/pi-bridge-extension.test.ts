import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ompPlan } from '../../../../src/adapters/agents/omp/omp-plan.ts';
import { piBridgeConfig, piBridgeExtensionSource } from '../../../../src/adapters/agents/pi/pi-bridge-extension.ts';
import { piPlan, piThinking } from '../../../../src/adapters/agents/pi/pi-plan.ts';
import type { LaunchContext } from '../../../../src/core/adapter/index.ts';
import { autoApprovalChannel } from '../../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { type McpServerHandle, startMcpServer } from '../../../../src/core/tools/mcp/start-mcp-server.ts';
import type { PermissionPolicy } from '../../../../src/core/tools/permission-policy.ts';

interface RegisteredTool {
  name: string;
  parameters: unknown;
  execute(id: string, params: unknown): Promise<{ content: { type: string; text?: string }[] }>;
}
type Hook = (event: { toolName: string; toolCallId: string; input: Record<string, unknown> }) => Promise<unknown>;

/** Loads the generated extension the way pi does (a module whose default export gets the API), against a stand-in API. */
async function loadBridge(policy: PermissionPolicy | undefined, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'pi-bridge-test-'));
  const file = join(dir, 'bridge.mjs');
  writeFileSync(file, piBridgeExtensionSource(piBridgeConfig(policy)));
  const tools: RegisteredTool[] = [];
  const hooks: Hook[] = [];
  const saved = { url: process.env.AGENT_MUX_MCP_URL, token: process.env.AGENT_MUX_MCP_TOKEN };
  Object.assign(process.env, env);
  try {
    const module = (await import(pathToFileURL(file).href)) as { default: (pi: unknown) => Promise<void> };
    await module.default({
      registerTool: (tool: RegisteredTool) => tools.push(tool),
      on: (event: string, hook: Hook) => event === 'tool_call' && hooks.push(hook),
    });
  } finally {
    // The module read them at import time.
    process.env.AGENT_MUX_MCP_URL = saved.url;
    process.env.AGENT_MUX_MCP_TOKEN = saved.token;
    if (saved.url === undefined) delete process.env.AGENT_MUX_MCP_URL;
    if (saved.token === undefined) delete process.env.AGENT_MUX_MCP_TOKEN;
  }
  return { tools, hook: hooks[0] as Hook };
}

let server: McpServerHandle | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(answer: 'approve' | 'deny') {
  const workspace = mkdtempSync(join(tmpdir(), 'pi-bridge-ws-'));
  writeFileSync(join(workspace, 'README.md'), 'hello from the workspace\n');
  const approvals = autoApprovalChannel(answer);
  const host = createToolHost({
    runId: 'r',
    workspacePath: workspace,
    tools: builtinTools(),
    policy: { default: 'allow' },
    approvals,
    emit: () => undefined,
    task: { prompt: 'x' },
  });
  server = await startMcpServer({ host, token: 'tok', permissionPrompt: { approvals, runId: 'r' } });
  return { AGENT_MUX_MCP_URL: server.url, AGENT_MUX_MCP_TOKEN: 'tok' };
}

describe('pi bridge extension', () => {
  it('registers the run MCP tools as mcp__agentmux__<tool> and calls them over streamable HTTP', async () => {
    const env = await serve('approve');
    const { tools } = await loadBridge(undefined, env);
    const names = tools.map((t) => t.name);
    expect(names).toContain('mcp__agentmux__read_file');
    expect(names).not.toContain('mcp__agentmux__approval_prompt');
    const read = tools.find((t) => t.name === 'mcp__agentmux__read_file') as RegisteredTool;
    expect(read.parameters).toMatchObject({ type: 'object' });
    const result = await read.execute('c1', { path: 'README.md' });
    expect(JSON.stringify(result.content)).toContain('hello from the workspace');
  });

  it('relays ask to approval_prompt, blocks on a denial, lets an approval through, blocks denied tools', async () => {
    const policy: PermissionPolicy = {
      default: 'allow',
      rules: [
        { tool: 'bash', decision: 'ask' },
        { tool: 'write', decision: 'deny' },
      ],
    };
    const denied = await loadBridge(policy, await serve('deny'));
    const event = { toolName: 'bash', toolCallId: 't1', input: { command: 'ls' } };
    expect(await denied.hook(event)).toMatchObject({
      block: true,
      reason: expect.stringMatching(/denied|non-interactive/),
    });
    expect(await denied.hook({ toolName: 'read', toolCallId: 't2', input: {} })).toBeUndefined();
    expect(await denied.hook({ toolName: 'write', toolCallId: 't3', input: {} })).toMatchObject({ block: true });
    expect(await denied.hook({ toolName: 'mcp__agentmux__write_file', toolCallId: 't4', input: {} })).toBeUndefined();
    await server?.close();
    const approved = await loadBridge(policy, await serve('approve'));
    expect(await approved.hook(event)).toBeUndefined();
  });

  it('fails closed when the server cannot be reached: no tools, every ask blocked', async () => {
    const { tools, hook } = await loadBridge(
      { default: 'ask' },
      { AGENT_MUX_MCP_URL: 'http://127.0.0.1:9/mcp', AGENT_MUX_MCP_TOKEN: 'x' },
    );
    expect(tools).toEqual([]);
    expect(await hook({ toolName: 'bash', toolCallId: 't', input: {} })).toMatchObject({
      block: true,
      reason: expect.stringContaining('approval failed'),
    });
  });

  it('maps the policy to per-tool decisions, when-narrowed deny/ask rules to ask', () => {
    expect(piBridgeConfig(undefined).fallback).toBe('allow');
    const config = piBridgeConfig({
      default: 'deny',
      rules: [
        { tool: 'bash', decision: 'deny', when: { command: 'rm *' } },
        { tool: 'read', decision: 'allow', when: { path: 'src/**' } },
        { tool: 'r*', decision: 'allow' },
      ],
    });
    expect(config.decisions).toMatchObject({ bash: 'ask', read: 'allow', edit: 'deny' });
    expect(config.fallback).toBe('deny');
  });
});

const ctx = (policy?: PermissionPolicy): LaunchContext => ({
  request: { prompt: 'p', cwd: '/w' },
  runId: 'r',
  taskId: 't',
  leaseToken: 'l',
  leaseEpoch: 1,
  mcpUrl: 'http://127.0.0.1:1234/mcp',
  mcpToken: 'secret-token',
  workspacePath: '/w',
  env: {},
  debug: false,
  policy,
});

describe('plans with the run MCP server', () => {
  it('pi: loads the bridge with --extension instead of a --tools allowlist; cleanup removes it', async () => {
    const plan = piPlan(ctx({ default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] }), {
      command: 'pi',
      thinking: piThinking,
    });
    expect(plan.args).not.toContain('--tools');
    const file = plan.args[plan.args.indexOf('--extension') + 1] as string;
    expect(readFileSync(file, 'utf8')).toContain('"bash":"deny"');
    expect(readFileSync(file, 'utf8')).not.toContain('secret-token');
    expect(plan.env).toMatchObject({
      AGENT_MUX_MCP_URL: 'http://127.0.0.1:1234/mcp',
      AGENT_MUX_MCP_TOKEN: 'secret-token',
    });
    await plan.cleanup?.();
    expect(existsSync(file)).toBe(false);
  });

  it('omp: the bridge plus an overlay that lets ask through to it', async () => {
    const plan = ompPlan(ctx({ default: 'ask', rules: [{ tool: 'bash', decision: 'ask' }] }), { command: 'omp' });
    const overlay = plan.args[plan.args.indexOf('--config') + 1] as string;
    expect(readFileSync(overlay, 'utf8')).toBe('tools:\n  approvalMode: yolo\n  approval:\n    "bash": allow\n');
    const bridge = plan.args[plan.args.indexOf('--extension') + 1] as string;
    expect(readFileSync(bridge, 'utf8')).toContain('"ast_grep":"ask"');
    await plan.cleanup?.();
    expect(existsSync(overlay) || existsSync(bridge)).toBe(false);
  });
});
