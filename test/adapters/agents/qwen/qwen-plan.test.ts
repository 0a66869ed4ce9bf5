import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectQwenAuth } from '../../../../src/adapters/agents/qwen/qwen-auth.ts';
import { qwenPlan } from '../../../../src/adapters/agents/qwen/qwen-plan.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

function ctx(request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext {
  return {
    request: { prompt: 'fix it', cwd: '/w', ...request },
    runId: 'r',
    taskId: 't',
    leaseToken: 'l',
    leaseEpoch: 1,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/w',
    env: { HOME: mkdtempSync(join(tmpdir(), 'qwen-plan-home-')) },
    debug: false,
    ...extra,
  };
}

describe('qwenPlan', () => {
  it('runs stream-json with partial messages, the prompt on stdin', () => {
    const plan = qwenPlan(ctx({}, { policy: { default: 'allow' } }), { command: 'qwen' });
    expect(plan.args).toEqual([
      '--output-format',
      'stream-json',
      '--include-partial-messages',
      '--approval-mode',
      'yolo',
    ]);
    expect(plan.stdin).toBe('fix it');
    expect(plan.cleanup).toBeUndefined();
  });

  it('maps model, system prompt, turns, resume and fork', () => {
    const plan = qwenPlan(
      ctx({ model: 'qwen3-coder-plus', systemPrompt: 'Be brief.', maxTurns: 3, resumeSessionId: 's1', fork: true }),
      { command: 'qwen' },
    );
    expect(plan.args).toEqual(
      expect.arrayContaining([
        '--model',
        'qwen3-coder-plus',
        '--append-system-prompt',
        'Be brief.',
        '--max-session-turns',
        '3',
        '--resume',
        's1',
        '--fork-session',
        '--approval-mode',
        'default',
      ]),
    );
  });

  it('maps policy rules to --allowed-tools and --exclude-tools', () => {
    const plan = qwenPlan(
      ctx(
        {},
        {
          policy: {
            default: 'allow',
            rules: [
              { tool: 'run_shell_command', decision: 'deny' },
              { tool: 'read_file', decision: 'allow' },
            ],
          },
        },
      ),
      { command: 'qwen' },
    );
    expect(plan.args.join(' ')).toContain('--allowed-tools read_file --exclude-tools run_shell_command');
  });

  it('writes the MCP config and the reasoning effort into files removed by cleanup', () => {
    const plan = qwenPlan(ctx({ thinkingEffort: 'max' }, { mcpUrl: 'http://127.0.0.1:9/mcp', mcpToken: 'tok' }), {
      command: 'qwen',
    });
    const mcpFile = plan.args[plan.args.indexOf('--mcp-config') + 1] ?? '';
    expect(JSON.parse(readFileSync(mcpFile, 'utf8'))).toEqual({
      mcpServers: {
        agentmux: { httpUrl: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok' }, trust: true },
      },
    });
    const settingsFile = plan.env?.QWEN_CODE_SYSTEM_SETTINGS_PATH ?? '';
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({
      model: { generationConfig: { reasoning: { effort: 'max' } } },
    });
    expect(plan.args.join(' ')).not.toContain('tok');
    plan.cleanup?.();
    expect(existsSync(mcpFile)).toBe(false);
    expect(existsSync(settingsFile)).toBe(false);
  });

  it('merges the machine system settings into the run system settings', () => {
    const system = join(mkdtempSync(join(tmpdir(), 'qwen-sys-')), 'settings.json');
    writeFileSync(system, '{"general": {"x": 1}}');
    const c = ctx({ thinkingEffort: 'low' });
    const plan = qwenPlan({ ...c, env: { ...c.env, QWEN_CODE_SYSTEM_SETTINGS_PATH: system } }, { command: 'qwen' });
    expect(JSON.parse(readFileSync(plan.env?.QWEN_CODE_SYSTEM_SETTINGS_PATH ?? '', 'utf8'))).toEqual({
      general: { x: 1 },
      model: { generationConfig: { reasoning: { effort: 'low' } } },
    });
    plan.cleanup?.();
  });
});

describe('detectQwenAuth', () => {
  it('finds keys in the environment and settings, else reports none', () => {
    const home = mkdtempSync(join(tmpdir(), 'qwen-auth-'));
    expect(detectQwenAuth({ HOME: home, OPENAI_API_KEY: 'k' })).toEqual({
      status: 'authenticated',
      method: 'api_key',
      details: ['OPENAI_API_KEY'],
    });
    expect(detectQwenAuth({ HOME: home }).status).toBe('unauthenticated');
  });
});
