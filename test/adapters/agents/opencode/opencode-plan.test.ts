import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kiloFlavor } from '../../../../src/adapters/agents/kilo/index.ts';
import { openCodePermission, openCodePlan } from '../../../../src/adapters/agents/opencode/index.ts';
import { opencodeFlavor } from '../../../../src/adapters/agents/opencode/opencode-plan.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

function ctx(request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext {
  return {
    request: { prompt: 'do the thing', cwd: '/work/ws', ...request },
    runId: 'run-1',
    taskId: 'task-1',
    leaseToken: 'lease',
    leaseEpoch: 1,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/work/ws',
    env: {},
    debug: false,
    ...extra,
  };
}

interface InlineConfig {
  permission: Record<string, unknown>;
  mcp?: unknown;
  instructions: string[];
  agent: Record<string, { permission?: unknown; steps?: number }>;
}

const config = (env: Record<string, string> | undefined, name = 'OPENCODE_CONFIG_CONTENT') =>
  JSON.parse(env?.[name] ?? '{}') as InlineConfig;

describe('openCodePlan', () => {
  it('runs headless with JSON events and the prompt on stdin (closed after)', async () => {
    const plan = await openCodePlan(ctx(), opencodeFlavor);
    expect(plan.command).toBe('opencode');
    expect(plan.args).toEqual(['run', '--format', 'json', '--thinking', '--title']);
    expect(plan.stdin).toBe('do the thing');
    expect(plan.keepStdinOpen).toBeUndefined();
    expect(plan.cwd).toBe('/work/ws');
    expect(plan.protocol).toBe('json-lines');
    expect(plan.env?.OPENCODE_DISABLE_AUTOUPDATE).toBe('1');
    expect(plan.cleanup).toBeUndefined();
  });

  it('maps model, resume, fork, thinking effort and files to real flags', async () => {
    const plan = await openCodePlan(
      ctx({
        model: 'anthropic/claude-sonnet-4-5',
        resumeSessionId: 'ses_abc',
        fork: true,
        thinkingEffort: 'max',
        files: [{ name: 'a.png', path: '/tmp/a.png' }],
      }),
      opencodeFlavor,
    );
    expect(plan.args.slice(5)).toEqual([
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--session',
      'ses_abc',
      '--fork',
      '--variant',
      'max',
      '--file',
      '/tmp/a.png',
    ]);
  });

  it('points the CLI at the run MCP server with the bearer header', async () => {
    const plan = await openCodePlan(ctx({}, { mcpUrl: 'http://127.0.0.1:9/mcp', mcpToken: 'tok' }), opencodeFlavor);
    expect(config(plan.env).mcp).toEqual({
      agent_mux: {
        type: 'remote',
        url: 'http://127.0.0.1:9/mcp',
        enabled: true,
        oauth: false,
        headers: { Authorization: 'Bearer tok' },
      },
    });
  });

  it('writes a system prompt into a temp instructions file that cleanup removes', async () => {
    const plan = await openCodePlan(ctx({ systemPrompt: 'Be brief.', maxTurns: 3 }), opencodeFlavor);
    const cfg = config(plan.env);
    const file = cfg.instructions[0] ?? '';
    expect(readFileSync(file, 'utf8')).toBe('Be brief.');
    expect(cfg.agent.build?.steps).toBe(3);
    await plan.cleanup?.();
    expect(existsSync(file)).toBe(false);
  });

  it('puts the policy at top level and on the default agent (evaluated last)', async () => {
    const policy = { default: 'allow' as const, rules: [{ tool: 'bash', decision: 'deny' as const }] };
    const plan = await openCodePlan(ctx({}, { policy }), opencodeFlavor);
    const cfg = config(plan.env);
    expect(cfg.permission).toEqual({ '*': 'allow', bash: 'deny' });
    expect(Object.keys(cfg.permission)).toEqual(['*', 'bash']);
    expect(cfg.agent.build?.permission).toEqual(cfg.permission);
  });

  it('Kilo uses its own command, env var and default agent', async () => {
    const plan = await openCodePlan(ctx({}, { policy: { default: 'deny' } }), kiloFlavor);
    expect(plan.command).toBe('kilo');
    expect(plan.env?.KILO_DISABLE_AUTOUPDATE).toBe('1');
    expect(config(plan.env, 'KILO_CONFIG_CONTENT').agent.code?.permission).toEqual({ '*': 'deny' });
  });
});

describe('openCodePermission', () => {
  it('defaults to ask without a policy', () => {
    expect(openCodePermission(undefined)).toEqual({ '*': 'ask' });
  });

  it('writes rules last-wins: default first, first policy rule last', () => {
    const permission = openCodePermission({
      default: 'ask',
      rules: [
        { tool: 'bash', decision: 'deny', when: { command: ['rm *', 'sudo *'] } },
        { tool: 'bash', decision: 'allow', when: { command: 'git *' } },
        { tool: 'edit', decision: 'allow' },
        { tool: 'agent_mux_*', decision: 'allow' },
      ],
    });
    expect(permission).toEqual({
      '*': 'ask',
      'agent_mux_*': 'allow',
      edit: 'allow',
      bash: { '*': 'ask', 'git *': 'allow', 'rm *': 'deny', 'sudo *': 'deny' },
    });
    expect(Object.keys(permission.bash as object)).toEqual(['*', 'git *', 'rm *', 'sudo *']);
    expect(Object.keys(permission)).toEqual(['*', 'agent_mux_*', 'edit', 'bash']);
  });

  it('errs toward caution with conditions on several arguments', () => {
    expect(
      openCodePermission({
        default: 'allow',
        rules: [
          { tool: 'edit', decision: 'deny', when: { filePath: '*.env', content: '*secret*' } },
          { tool: 'read', decision: 'allow', when: { filePath: 'src/*', offset: '1' } },
        ],
      }),
    ).toEqual({ '*': 'allow', edit: 'deny' });
  });
});
