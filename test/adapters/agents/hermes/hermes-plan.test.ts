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

  it('issue 32.7: a policy that denies `shell` (the repository config’s name) never gives --yolo, and takes every command tool', () => {
    for (const tool of ['shell', 'bash', 'exec_command', 'terminal', 'execute_code', 'delegate_task']) {
      const args = hermesPermissionArgs({ default: 'allow', rules: [{ tool, decision: 'deny' }] });
      expect(args, tool).not.toContain('--yolo');
      const toolsets = args[1]?.split(',') ?? [];
      for (const commands of ['terminal', 'code_execution', 'delegation'])
        expect(toolsets, tool).not.toContain(commands);
      expect(toolsets, tool).toContain('file');
    }
    // `ask` of the shell is a deny too (hermes cannot ask in stream-json runs).
    expect(hermesPermissionArgs({ default: 'allow', rules: [{ tool: 'shell', decision: 'ask' }] })).not.toContain(
      '--yolo',
    );
    // `write_file` denied takes the patch tool's toolset with it.
    const writes = hermesPermissionArgs({ default: 'allow', rules: [{ tool: 'write_file', decision: 'deny' }] });
    expect(writes[1]?.split(',')).not.toContain('file');
  });

  it('keeps only fully allowed toolsets under a deny/ask default', () => {
    expect(hermesPermissionArgs({ default: 'ask', rules: [{ tool: 'todo', decision: 'allow' }] })).toEqual([
      '--toolsets',
      'todo',
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
