import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GEMINI_MCP_TOKEN_ENV,
  geminiPlan,
  geminiThinkingConfig,
} from '../../../../src/adapters/agents/gemini/gemini-plan.ts';
import { geminiPolicyToml, toolLists } from '../../../../src/adapters/agents/gemini/gemini-policy.ts';
import { parseJsonc } from '../../../../src/adapters/agents/gemini/gemini-settings.ts';
import { geminiAdapter } from '../../../../src/adapters/agents/gemini/index.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

function ctx(request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext {
  const home = mkdtempSync(join(tmpdir(), 'gemini-plan-home-'));
  return {
    request: { prompt: 'fix it', cwd: '/w', ...request },
    runId: 'r',
    taskId: 't',
    leaseToken: 'l',
    leaseEpoch: 1,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/w',
    env: { HOME: home },
    debug: false,
    ...extra,
  };
}

describe('geminiPlan', () => {
  it('runs headless stream-json with the prompt on stdin and no temp files when none are needed', () => {
    const plan = geminiPlan(ctx({}, { policy: { default: 'allow' } }), { command: 'gemini' });
    expect(plan.command).toBe('gemini');
    expect(plan.args).toEqual(['-p', '', '--output-format', 'stream-json', '--skip-trust', '--approval-mode', 'yolo']);
    expect(plan.stdin).toBe('fix it');
    expect(plan.protocol).toBe('json-lines');
    expect(plan.cleanup).toBeUndefined();
    expect(plan.env).toEqual({});
  });

  it('passes model and resume, and a policy file for rules', () => {
    const plan = geminiPlan(
      ctx(
        { model: 'gemini-2.5-pro', resumeSessionId: 'abc' },
        { policy: { default: 'allow', rules: [{ tool: 'run_shell_command', decision: 'deny' }] } },
      ),
      { command: 'gemini' },
    );
    expect(plan.args).toEqual(expect.arrayContaining(['--model', 'gemini-2.5-pro', '--resume', 'abc']));
    const file = plan.args[plan.args.indexOf('--policy') + 1] ?? '';
    expect(readFileSync(file, 'utf8')).toContain('toolName = "run_shell_command"\ndecision = "deny"');
    plan.cleanup?.();
    expect(existsSync(file)).toBe(false);
  });

  it('writes MCP, thinking, turn limit and API-key auth into a settings overlay of ~/.gemini', () => {
    const c = ctx(
      { thinkingEffort: 'high', maxTurns: 7, model: 'gemini-2.5-flash' },
      { mcpUrl: 'http://127.0.0.1:9/mcp', mcpToken: 'tok-123' },
    );
    const home = c.env.HOME as string;
    mkdirSync(join(home, '.gemini', 'tmp'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), '{\n  // mine\n  "ui": {"theme": "x"}\n}');
    writeFileSync(join(home, '.gemini', 'oauth_creds.json'), '{}');
    const plan = geminiPlan({ ...c, env: { ...c.env, GEMINI_API_KEY: 'k' } }, { command: 'gemini' });
    const overlay = plan.env?.GEMINI_CLI_HOME ?? '';
    expect(overlay).not.toBe('');
    const settings = JSON.parse(readFileSync(join(overlay, '.gemini', 'settings.json'), 'utf8'));
    expect(settings.ui).toEqual({ theme: 'x' });
    expect(settings.mcpServers.agentmux).toEqual({
      httpUrl: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: `Bearer \${${GEMINI_MCP_TOKEN_ENV}}` },
      trust: true,
    });
    expect(JSON.stringify(settings)).not.toContain('tok-123');
    expect(plan.env?.[GEMINI_MCP_TOKEN_ENV]).toBe('tok-123');
    expect(settings.model).toEqual({ maxSessionTurns: 7 });
    expect(settings.security).toEqual({ auth: { selectedType: 'gemini-api-key' } });
    expect(settings.modelConfigs.customOverrides[0].modelConfig.generateContentConfig.thinkingConfig).toEqual({
      thinkingBudget: 24576,
      includeThoughts: true,
    });
    expect(lstatSync(join(overlay, '.gemini', 'oauth_creds.json')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(overlay, '.gemini', 'tmp')).isSymbolicLink()).toBe(true);
    // The user's own file is untouched.
    expect(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')).toContain('// mine');
    plan.cleanup?.();
    expect(existsSync(overlay)).toBe(false);
    expect(existsSync(join(home, '.gemini', 'oauth_creds.json'))).toBe(true);
  });

  it('puts a system prompt in GEMINI_SYSTEM_MD', () => {
    const plan = geminiPlan(ctx({ systemPrompt: 'Be brief.' }), { command: 'gemini' });
    expect(readFileSync(plan.env?.GEMINI_SYSTEM_MD ?? '', 'utf8')).toBe('Be brief.');
    plan.cleanup?.();
  });

  it('maps effort to levels on Gemini 3 and the default model, budgets on 2.x', () => {
    expect(geminiThinkingConfig('low', undefined)).toEqual({ thinkingLevel: 'LOW', includeThoughts: true });
    expect(geminiThinkingConfig('max', 'gemini-3-pro-preview')).toEqual({
      thinkingLevel: 'HIGH',
      includeThoughts: true,
    });
    expect(geminiThinkingConfig('low', 'gemini-2.5-pro')).toMatchObject({ thinkingBudget: 1024 });
    expect(geminiThinkingConfig('max', 'gemini-2.5-pro')).toMatchObject({ thinkingBudget: 32768 });
  });

  it('is the plan of the adapter', async () => {
    const adapter = geminiAdapter({ command: '/opt/gemini' });
    expect(adapter.launch.kind).toBe('process');
    if (adapter.launch.kind !== 'process') return;
    const plan = await adapter.launch.plan(ctx());
    expect(plan.command).toBe('/opt/gemini');
    expect(plan.args).toContain('default');
  });
});

describe('permission mapping', () => {
  it('keeps rule order in priorities, maps ask to ask_user and shell prefixes to commandPrefix', () => {
    const toml = geminiPolicyToml({
      default: 'deny',
      rules: [
        { tool: 'run_shell_command', decision: 'allow', when: { command: 'git *' } },
        { tool: 'write_file', decision: 'ask' },
        { tool: 'read_file', decision: 'allow', when: { path: 'src/**' } },
      ],
    });
    expect(toml).toContain('toolName = "run_shell_command"\ndecision = "allow"\npriority = 900\ncommandPrefix = "git"');
    expect(toml).toContain('toolName = "write_file"\ndecision = "ask_user"\npriority = 899');
    expect(toml).not.toContain('read_file');
    expect(toml).toContain('toolName = "*"\ndecision = "deny"\npriority = 5');
  });

  it('gives exact allow/deny lists for flags, first rule winning, ask as deny', () => {
    expect(
      toolLists({
        default: 'allow',
        rules: [
          { tool: 'run_shell_command', decision: 'deny' },
          { tool: 'run_shell_command', decision: 'allow' },
          { tool: 'edit', decision: 'ask' },
          { tool: 'read_file', decision: 'allow' },
          { tool: 'mcp__*', decision: 'deny' },
        ],
      }),
    ).toEqual({ approvalMode: 'yolo', allow: ['read_file'], deny: ['run_shell_command', 'edit'] });
    expect(toolLists(undefined)).toEqual({ approvalMode: 'default', allow: [], deny: [] });
  });

  it('reads settings with comments but not comment-like text in strings', () => {
    expect(parseJsonc('{"u": "http://x/*y*/", /* c */ "a": 1 // d\n}')).toEqual({ u: 'http://x/*y*/', a: 1 });
    expect(parseJsonc('{bad')).toBeUndefined();
  });
});
