import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexFirstTurnInput } from '../../../../src/adapters/agents/codex/codex-plan.ts';
import {
  codexAdapter,
  codexPermissions,
  codexPlan,
  detectCodexAuth,
} from '../../../../src/adapters/agents/codex/index.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

function ctx(request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext {
  return {
    request: { prompt: 'Fix the bug', cwd: '/work/repo', ...request },
    runId: 'run-1',
    taskId: 'task-1',
    leaseToken: 'lease',
    leaseEpoch: 1,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/work/repo',
    env: {},
    debug: false,
    policy: { default: 'allow' },
    ...extra,
  };
}

const lines = (stdin: string | undefined): unknown[] =>
  (stdin ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('codexPlan', () => {
  it('runs `codex app-server`, opening with initialize, initialized and thread/start; stdin stays open', () => {
    const plan = codexPlan(ctx());
    expect(plan.command).toBe('codex');
    expect(plan.args).toEqual(['app-server']);
    expect(lines(plan.stdin)).toEqual([
      {
        id: 'agent-mux-initialize',
        method: 'initialize',
        params: { clientInfo: { name: 'agent-mux', title: 'agent-mux', version: '1' } },
      },
      { method: 'initialized' },
      {
        id: 'agent-mux-thread',
        method: 'thread/start',
        params: { cwd: '/work/repo', approvalPolicy: 'never', sandbox: 'workspace-write' },
      },
    ]);
    expect(plan.keepStdinOpen).toBe(true);
    expect(plan.protocol).toBe('json-lines');
    expect(codexFirstTurnInput(ctx())).toEqual([{ type: 'text', text: 'Fix the bug', text_elements: [] }]);
  });

  it('passes the model with the thread, effort (max → xhigh) and the system prompt as TOML strings', () => {
    const plan = codexPlan(ctx({ model: 'gpt-5.5', thinkingEffort: 'max', systemPrompt: 'Say "hi"\nthen stop' }));
    expect(lines(plan.stdin)[2]).toMatchObject({ params: { model: 'gpt-5.5' } });
    expect(plan.args).toContain('model_reasoning_effort=xhigh');
    expect(plan.args).toContain('developer_instructions="Say \\"hi\\"\\nthen stop"');
  });

  it('resumes or forks a session with thread/resume or thread/fork', () => {
    expect(lines(codexPlan(ctx({ resumeSessionId: 'abc' })).stdin)[2]).toMatchObject({
      method: 'thread/resume',
      params: { threadId: 'abc', cwd: '/work/repo', sandbox: 'workspace-write' },
    });
    expect(lines(codexPlan(ctx({ resumeSessionId: 'abc', fork: true })).stdin)[2]).toMatchObject({
      method: 'thread/fork',
      params: { threadId: 'abc' },
    });
  });

  it('points Codex at the run MCP server with the token in an env var, never on the command line', () => {
    const plan = codexPlan(ctx({}, { mcpUrl: 'http://127.0.0.1:4000/mcp', mcpToken: 'secret-token' }));
    expect(plan.args).toContain('mcp_servers.agent_mux.url="http://127.0.0.1:4000/mcp"');
    expect(plan.args).toContain('mcp_servers.agent_mux.bearer_token_env_var="AGENT_MUX_MCP_TOKEN"');
    expect(plan.args).toContain('mcp_servers.agent_mux.default_tools_approval_mode="approve"');
    expect(plan.env).toEqual({ AGENT_MUX_MCP_TOKEN: 'secret-token' });
    expect(plan.args.join(' ')).not.toContain('secret-token');
  });

  it('attaches images as localImage input and names other files in the prompt', () => {
    const input = codexFirstTurnInput(
      ctx({
        files: [
          { name: 'shot.png', path: '/tmp/shot.png', mimeType: 'image/png' },
          { name: 'log.txt', path: '/tmp/log.txt' },
        ],
      }),
    );
    expect(input[1]).toEqual({ type: 'localImage', path: '/tmp/shot.png' });
    expect(input[0]).toMatchObject({ type: 'text', text: expect.stringContaining('- log.txt: /tmp/log.txt') });
    expect(input).toHaveLength(2);
  });
});

describe('codexPermissions', () => {
  it('allows everything in the configured sandbox, with no notice', () => {
    expect(codexPermissions({ default: 'allow' }, 'danger-full-access')).toEqual({
      approval: 'never',
      sandbox: 'danger-full-access',
      disableShell: false,
    });
    expect(codexPlan(ctx()).notices).toBeUndefined();
  });

  it('removes the shell when the policy denies it, by name or by default, and says so', () => {
    const denied = { approval: 'never', sandbox: 'read-only', disableShell: true };
    expect(
      codexPermissions({ default: 'allow', rules: [{ tool: 'exec_command', decision: 'deny' }] }, 'workspace-write'),
    ).toMatchObject(denied);
    expect(codexPermissions({ default: 'deny' }, 'workspace-write')).toMatchObject(denied);
    expect(codexPermissions({ default: 'deny' }, 'workspace-write').notice).toBe(
      'The policy made Codex read-only: it denies the shell (`exec_command`), so Codex runs without one and cannot write files.',
    );
    expect(codexPlan(ctx({}, { policy: { default: 'deny' } })).args).toEqual(
      expect.arrayContaining(['--disable', 'shell_tool']),
    );
  });

  it('falls back to the read-only sandbox for ask, argument-narrowed rules, patches and no policy', () => {
    const readOnly = { approval: 'never', sandbox: 'read-only', disableShell: false };
    expect(codexPermissions({ default: 'ask' }, 'workspace-write')).toMatchObject(readOnly);
    expect(codexPermissions(undefined, 'workspace-write')).toMatchObject(readOnly);
    expect(
      codexPermissions(
        { default: 'allow', rules: [{ tool: 'exec_command', decision: 'deny', when: { command: 'rm *' } }] },
        'workspace-write',
      ),
    ).toMatchObject(readOnly);
    expect(
      codexPermissions({ default: 'allow', rules: [{ tool: 'apply_patch', decision: 'deny' }] }, 'workspace-write'),
    ).toMatchObject(readOnly);
  });

  it('says why it made Codex read-only', () => {
    expect(codexPermissions({ default: 'ask' }, 'workspace-write').notice).toBe(
      'The policy made Codex read-only: `exec_command` is `ask`, and Codex cannot ask during a run.',
    );
    expect(
      codexPermissions(
        { default: 'allow', rules: [{ tool: 'shell', decision: 'deny', when: { command: 'rm *' } }] },
        'workspace-write',
      ).notice,
    ).toBe(
      'The policy made Codex read-only: `exec_command` has `ask` or `deny` rules on its arguments, which Codex cannot check, and Codex cannot ask during a run.',
    );
    expect(
      codexPermissions({ default: 'allow', rules: [{ tool: 'apply_patch', decision: 'deny' }] }, 'workspace-write')
        .notice,
    ).toBe('The policy made Codex read-only: `apply_patch` is `deny`, and Codex cannot ask during a run.');
    expect(codexPlan(ctx({}, { policy: { default: 'ask' } })).notices).toEqual([
      {
        code: 'read_only',
        message: 'The policy made Codex read-only: `exec_command` is `ask`, and Codex cannot ask during a run.',
      },
    ]);
  });

  it('takes one decision for the shell whatever name the policy uses (exec_command, shell, local_shell)', () => {
    const writable = { approval: 'never', sandbox: 'workspace-write', disableShell: false };
    for (const tool of ['exec_command', 'shell', 'local_shell']) {
      const allowed = {
        default: 'ask' as const,
        rules: [
          { tool, decision: 'allow' as const },
          { tool: 'apply_patch', decision: 'allow' as const },
        ],
      };
      expect(codexPermissions(allowed, 'workspace-write'), tool).toEqual(writable);
      const denied = { default: 'allow' as const, rules: [{ tool, decision: 'deny' as const }] };
      expect(codexPermissions(denied, 'workspace-write').disableShell, tool).toBe(true);
    }
  });

  it('lets the first matching rule decide, not the strictest of the aliases', () => {
    const policy = {
      default: 'allow' as const,
      rules: [
        { tool: 'exec_command', decision: 'allow' as const },
        { tool: 'local_shell', decision: 'deny' as const },
      ],
    };
    expect(codexPermissions(policy, 'workspace-write').sandbox).toBe('workspace-write');
    expect(codexPermissions({ ...policy, rules: [...policy.rules].reverse() }, 'workspace-write').disableShell).toBe(
      true,
    );
  });
});

describe('codexAdapter', () => {
  it('declares the program and capabilities', () => {
    const adapter = codexAdapter();
    expect(adapter.id).toBe('codex');
    expect(adapter.program).toMatchObject({ command: 'codex', npmPackage: '@openai/codex', verifiedLive: true });
    expect(adapter.capabilities).toMatchObject({ resume: true, fork: true, mcp: true, approvals: 'none' });
    expect(adapter.secretEnv).toContain('OPENAI_API_KEY');
  });

  it('detects API keys in the environment and logins in auth.json', () => {
    const home = mkdtempSync(join(tmpdir(), 'codex-auth-'));
    const codexHome = join(home, '.codex');
    expect(detectCodexAuth({ HOME: home, CODEX_API_KEY: 'sk-x' })).toMatchObject({
      status: 'authenticated',
      method: 'api_key',
      details: ['CODEX_API_KEY'],
    });
    expect(detectCodexAuth({ HOME: home }).status).toBe('unauthenticated');
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: null, tokens: { id_token: 'x' } }));
    expect(detectCodexAuth({ HOME: home })).toMatchObject({ status: 'authenticated', method: 'oauth' });
    writeFileSync(join(codexHome, 'auth.json'), JSON.stringify({ OPENAI_API_KEY: 'sk-y' }));
    expect(detectCodexAuth({ CODEX_HOME: codexHome })).toMatchObject({ status: 'authenticated', method: 'api_key' });
    writeFileSync(join(codexHome, 'auth.json'), '{not json');
    expect(detectCodexAuth({ HOME: home }).status).toBe('unknown');
  });
});
