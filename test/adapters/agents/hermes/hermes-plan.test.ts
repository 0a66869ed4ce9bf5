import { describe, expect, it } from 'vitest';
import { hermesPermissionArgs, hermesPlan } from '../../../../src/adapters/agents/hermes/hermes-plan.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

const ctx = (request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext => ({
  request: { prompt: 'fix it', cwd: '/repo', ...request },
  runId: 'r',
  taskId: 'r',
  leaseToken: '',
  fencingToken: 0,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: '/repo',
  env: {},
  debug: false,
  ...extra,
});

describe('hermesPlan', () => {
  it('runs `hermes chat --query-file - --format stream-json` with the prompt on stdin', () => {
    const plan = hermesPlan(
      ctx({ model: 'anthropic/claude-sonnet-4.6', maxTurns: 5, thinkingEffort: 'high', resumeSessionId: 's1' }),
      'hermes',
    );
    expect(plan.args).toEqual([
      'chat',
      '--query-file',
      '-',
      '--format',
      'stream-json',
      '--source',
      'tool',
      '--model',
      'anthropic/claude-sonnet-4.6',
      '--max-turns',
      '5',
      '--reasoning',
      'high',
      '--resume',
      's1',
    ]);
    expect(plan).toMatchObject({ stdin: 'fix it', cwd: '/repo', protocol: 'json-lines' });
  });

  it('puts the system prompt ahead of the prompt (no flag for it)', () => {
    expect(hermesPlan(ctx({ systemPrompt: 'Be brief.' }), 'hermes').stdin).toBe('Be brief.\n\n---\n\nfix it');
  });
});

describe('hermesPermissionArgs', () => {
  it('passes --yolo when everything is allowed', () => {
    expect(hermesPermissionArgs({ default: 'allow' })).toEqual(['--yolo']);
    expect(hermesPermissionArgs(undefined)).toEqual([]);
  });

  it('drops the terminal toolset when the shell is denied', () => {
    const args = hermesPermissionArgs({ default: 'allow', rules: [{ tool: 'terminal', decision: 'deny' }] });
    expect(args[0]).toBe('--toolsets');
    expect(args[1]?.split(',')).not.toContain('terminal');
    expect(args[1]?.split(',')).toContain('file');
    expect(args).not.toContain('--yolo');
  });

  it('keeps only fully allowed toolsets under a deny/ask default', () => {
    expect(hermesPermissionArgs({ default: 'ask', rules: [{ tool: 'read_file', decision: 'allow' }] })).toEqual([
      '--toolsets',
      'none',
    ]);
    expect(
      hermesPermissionArgs({
        default: 'deny',
        rules: ['read_file', 'write_file', 'patch', 'search_files'].map((tool) => ({
          tool,
          decision: 'allow' as const,
        })),
      }),
    ).toEqual(['--toolsets', 'file']);
  });
});
