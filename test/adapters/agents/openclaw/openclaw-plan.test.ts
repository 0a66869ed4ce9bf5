import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openclawPlan,
  openclawToolPolicy,
  rememberSession,
  sessionStateDir,
} from '../../../../src/adapters/agents/openclaw/openclaw-plan.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

function context(home: string, request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext {
  return {
    request: { prompt: 'do it', cwd: '/work', ...request },
    runId: 'run_1',
    taskId: 'run_1',
    leaseToken: '',
    leaseEpoch: 0,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/work',
    env: { HOME: home },
    debug: false,
    ...extra,
  };
}

describe('openclawPlan', () => {
  it('runs `agent exec` with the prompt on stdin, a temp state dir and text protocol; keeps the session dir', async () => {
    const home = mkdtempSync(join(tmpdir(), 'oc-plan-'));
    const plan = await openclawPlan(context(home, { model: 'anthropic/claude-x', thinkingEffort: 'max' }), 'openclaw');
    const stateDir = plan.args[plan.args.indexOf('--state-dir') + 1] as string;
    expect(plan.args).toEqual([
      'agent',
      'exec',
      '--message-file',
      '-',
      '--cwd',
      '/work',
      '--state-dir',
      stateDir,
      '--json',
      '--model',
      'anthropic/claude-x',
      '--thinking',
      'max',
    ]);
    expect(plan.stdin).toBe('do it');
    expect(plan.protocol).toBe('text');
    expect(plan.pty).toBeUndefined();
    writeFileSync(join(stateDir, 'marker'), 'x');
    rememberSession('run_1', 'sess-9');
    await plan.cleanup?.();
    expect(existsSync(stateDir)).toBe(false);
    expect(readFileSync(join(sessionStateDir({ HOME: home }, 'sess-9'), 'marker'), 'utf8')).toBe('x');
  });

  it('drops the state dir of a run that reported no session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'oc-plan-'));
    const plan = await openclawPlan(context(home), 'openclaw');
    const stateDir = plan.args[plan.args.indexOf('--state-dir') + 1] as string;
    await plan.cleanup?.();
    expect(existsSync(stateDir)).toBe(false);
    expect(existsSync(join(home, '.cache'))).toBe(false);
  });

  it('writes an overlay config that includes the user config, denies tools and adds the MCP server', async () => {
    const home = mkdtempSync(join(tmpdir(), 'oc-plan-'));
    mkdirSync(join(home, '.openclaw'));
    writeFileSync(join(home, '.openclaw', 'openclaw.json'), '{}');
    const plan = await openclawPlan(
      context(
        home,
        {},
        {
          mcpUrl: 'http://127.0.0.1:9/mcp',
          mcpToken: 'tok',
          policy: { default: 'allow', rules: [{ tool: 'exec', decision: 'deny' }] },
        },
      ),
      'openclaw',
    );
    const config = plan.args[plan.args.indexOf('--config') + 1] as string;
    const overlay = JSON.parse(readFileSync(config, 'utf8'));
    expect(overlay.$include).toBe(join(home, '.openclaw', 'openclaw.json'));
    expect(overlay.tools).toEqual({ deny: ['exec'] });
    expect(overlay.mcp.servers['agent-mux']).toEqual({
      url: 'http://127.0.0.1:9/mcp',
      transport: 'streamable-http',
      headers: { Authorization: 'Bearer ${AGENT_MUX_MCP_TOKEN}' },
    });
    expect(JSON.stringify(overlay)).not.toContain('tok"');
    expect(plan.env).toMatchObject({ AGENT_MUX_MCP_TOKEN: 'tok', OPENCLAW_INCLUDE_ROOTS: join(home, '.openclaw') });
    await plan.cleanup?.();
    expect(existsSync(config)).toBe(false);
  });

  it('resumes with `agent --local --session-id` in the state dir that holds the session', async () => {
    const home = mkdtempSync(join(tmpdir(), 'oc-plan-'));
    mkdirSync(sessionStateDir({ HOME: home }, 'sess-1'), { recursive: true });
    const plan = await openclawPlan(context(home, { resumeSessionId: 'sess-1', prompt: 'again' }), 'openclaw');
    expect(plan.args.slice(0, 4)).toEqual(['agent', '--local', '--session-id', 'sess-1']);
    const promptFile = plan.args[plan.args.indexOf('--message-file') + 1] as string;
    expect(readFileSync(promptFile, 'utf8')).toBe('again');
    expect(plan.env?.OPENCLAW_STATE_DIR).toBe(sessionStateDir({ HOME: home }, 'sess-1'));
    const overlay = JSON.parse(readFileSync(plan.env?.OPENCLAW_CONFIG_PATH as string, 'utf8'));
    expect(overlay.agents).toEqual({ defaults: { workspace: '/work', skipBootstrap: true } });
    await plan.cleanup?.();
  });

  it('maps policies to tools.allow / tools.deny', () => {
    expect(openclawToolPolicy(undefined)).toBeUndefined();
    expect(openclawToolPolicy({ default: 'allow' })).toBeUndefined();
    expect(openclawToolPolicy({ default: 'allow', rules: [{ tool: 'exec', decision: 'ask' }] })).toEqual({
      deny: ['exec'],
    });
    expect(openclawToolPolicy({ default: 'deny' })).toEqual({ deny: ['*'] });
    expect(openclawToolPolicy({ default: 'ask', rules: [{ tool: 'read', decision: 'allow' }] })).toEqual({
      allow: ['read'],
    });
  });
});
