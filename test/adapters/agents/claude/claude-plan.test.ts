import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectClaudeAuth } from '../../../../src/adapters/agents/claude/claude-auth.ts';
import { claudePermissionArgs, claudePlan, toClaudeRules } from '../../../../src/adapters/agents/claude/claude-plan.ts';
import { claudeAdapter } from '../../../../src/adapters/agents/claude/index.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';

const ctx = (request: Partial<RunRequest> = {}, extra: Partial<LaunchContext> = {}): LaunchContext => ({
  request: { prompt: 'do it', cwd: '/work/ws', ...request },
  runId: 'r',
  taskId: 't',
  leaseToken: 'l',
  leaseEpoch: 1,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: '/work/ws',
  env: {},
  debug: false,
  ...extra,
});

const opts = { command: 'claude', isRoot: () => false };

describe('claudePlan', () => {
  it('runs claude -p with stream-json in and out, partial messages, and the prompt as the first user message', async () => {
    const plan = await claudePlan(ctx(), opts);
    expect(plan.command).toBe('claude');
    expect(plan.args.slice(0, 8)).toEqual([
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--replay-user-messages',
    ]);
    const message = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'do it' }] } };
    expect(plan.stdin).toBe(`${JSON.stringify(message)}\n`);
    // Open for messages during the run, each a user message like the first.
    expect(plan.keepStdinOpen).toBe(true);
    expect(plan.input?.message('also this')).toEqual({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: 'also this' }] },
    });
    expect(plan.protocol).toBe('json-lines');
    expect(plan.cwd).toBe('/work/ws');
    expect(plan.env).toMatchObject({ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });
    expect(plan.cleanup).toBeUndefined();
  });

  it('maps model, system prompt, max turns, resume, fork and thinking effort', async () => {
    const plan = await claudePlan(
      ctx({
        model: 'sonnet',
        systemPrompt: 'Be brief.',
        maxTurns: 3,
        resumeSessionId: 'abc',
        fork: true,
        thinkingEffort: 'medium',
      }),
      opts,
    );
    const a = plan.args.join(' ');
    expect(a).toContain('--model sonnet');
    expect(a).toContain('--append-system-prompt Be brief.');
    expect(a).toContain('--max-turns 3');
    expect(a).toContain('--resume abc --fork-session');
    expect(a).toContain('--effort medium');
    expect(plan.env?.MAX_THINKING_TOKENS).toBe('8192');
    const max = await claudePlan(ctx({ thinkingEffort: 'max' }), opts);
    expect(max.args.join(' ')).toContain('--effort max');
    expect(max.env?.MAX_THINKING_TOKENS).toBeUndefined();
    const resumeOnly = await claudePlan(ctx({ resumeSessionId: 'abc' }), opts);
    expect(resumeOnly.args).not.toContain('--fork-session');
  });

  it('lists attached files in the prompt and adds their directories outside the workspace', async () => {
    const plan = await claudePlan(
      ctx({
        files: [
          { name: 'spec.pdf', path: '/tmp/up/spec.pdf', mimeType: 'application/pdf' },
          { name: 'a', path: '/work/ws/a.txt' },
        ],
      }),
      opts,
    );
    expect(plan.stdin).toContain('- spec.pdf: /tmp/up/spec.pdf (application/pdf)');
    expect(plan.args.join(' ')).toContain('--add-dir /tmp/up');
    expect(plan.args.filter((a) => a === '--add-dir')).toHaveLength(1);
  });

  it('writes the MCP config with the bearer token to a temp file that cleanup removes', async () => {
    const plan = await claudePlan(
      ctx(
        {},
        {
          mcpUrl: 'http://127.0.0.1:5555/mcp',
          mcpToken: 'tok-123',
          mcpApprovalPrompt: true,
          policy: { default: 'ask' },
        },
      ),
      opts,
    );
    const file = plan.args[plan.args.indexOf('--mcp-config') + 1] ?? '';
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: {
        'agent-mux': { type: 'http', url: 'http://127.0.0.1:5555/mcp', headers: { Authorization: 'Bearer tok-123' } },
      },
    });
    expect(plan.args.join(' ')).not.toContain('tok-123');
    expect(plan.args.join(' ')).toContain('--permission-prompt-tool mcp__agent-mux__approval_prompt');
    expect(plan.args.join(' ')).toContain('--allowedTools mcp__agent-mux');
    await plan.cleanup?.();
    expect(existsSync(file)).toBe(false);
  });
});

describe('claudePermissionArgs', () => {
  const none = { promptTool: false, isRoot: false };
  const withPrompt = { promptTool: true, isRoot: false };

  it('default allow → bypassPermissions, with IS_SANDBOX=1 only as root; deny rules → --disallowedTools', () => {
    expect(claudePermissionArgs({ default: 'allow' }, none)).toMatchObject({
      args: ['--permission-mode', 'bypassPermissions'],
      env: {},
    });
    const root = claudePermissionArgs(
      { default: 'allow', rules: [{ tool: 'Bash', decision: 'deny' }] },
      { ...none, isRoot: true },
    );
    expect(root.args).toEqual(['--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash']);
    expect(root.env).toEqual({ IS_SANDBOX: '1' });
  });

  it('default ask → the MCP prompt tool when there is a server, Claude’s -p defaults otherwise', () => {
    expect(claudePermissionArgs({ default: 'ask' }, withPrompt).args).toEqual([
      '--permission-prompt-tool',
      'mcp__agent-mux__approval_prompt',
      '--allowedTools',
      'mcp__agent-mux',
    ]);
    expect(claudePermissionArgs({ default: 'ask' }, none).args).toEqual([]);
    expect(claudePermissionArgs(undefined, none).args).toEqual([]);
  });

  it('default deny → dontAsk with the allowed tools', () => {
    expect(claudePermissionArgs({ default: 'deny', rules: [{ tool: 'Read', decision: 'allow' }] }, none).args).toEqual([
      '--permission-mode',
      'dontAsk',
      '--allowedTools',
      'Read',
    ]);
  });

  it('default allow with ask rules: everything else allowed up front, the asked tool through the prompt tool', () => {
    const { args } = claudePermissionArgs({ default: 'allow', rules: [{ tool: 'Bash', decision: 'ask' }] }, withPrompt);
    expect(args).toContain('--permission-prompt-tool');
    const allowed = (args[args.indexOf('--allowedTools') + 1] ?? '').split(',');
    expect(allowed).toContain('Read');
    expect(allowed).toContain('mcp__agent-mux');
    expect(allowed).not.toContain('Bash');
    expect(args).not.toContain('bypassPermissions');
    // Nobody to ask: the asked tool is denied.
    expect(claudePermissionArgs({ default: 'allow', rules: [{ tool: 'Bash', decision: 'ask' }] }, none).args).toEqual([
      '--permission-mode',
      'bypassPermissions',
      '--disallowedTools',
      'Bash',
    ]);
  });

  it('a "*" rule ends the rules and sets the default', () => {
    expect(
      claudePermissionArgs(
        {
          default: 'allow',
          rules: [
            { tool: '*', decision: 'deny' },
            { tool: 'Read', decision: 'allow' },
          ],
        },
        none,
      ).args,
    ).toEqual(['--permission-mode', 'dontAsk']);
  });

  it('translates rules with arguments into Claude rule syntax where it can', () => {
    expect(toClaudeRules({ tool: 'Bash', decision: 'allow', when: { command: ['git *', 'ls'] } })).toEqual([
      'Bash(git *)',
      'Bash(ls)',
    ]);
    expect(toClaudeRules({ tool: 'Edit', decision: 'deny', when: { file_path: 'secrets/**' } })).toEqual([
      'Edit(secrets/**)',
    ]);
    expect(toClaudeRules({ tool: 'mcp__github__*', decision: 'allow' })).toEqual(['mcp__github']);
    expect(toClaudeRules({ tool: 'Web*', decision: 'allow' })).toBeUndefined();
    expect(toClaudeRules({ tool: 'Bash', decision: 'allow', when: { timeout: '1' } })).toBeUndefined();
  });
});

describe('claudeAdapter', () => {
  it('declares the program, secrets and capabilities', () => {
    const adapter = claudeAdapter({ command: '/opt/claude' });
    expect(adapter.id).toBe('claude');
    expect(adapter.program).toMatchObject({
      command: '/opt/claude',
      npmPackage: '@anthropic-ai/claude-code',
      verifiedLive: true,
    });
    expect(adapter.secretEnv).toContain('ANTHROPIC_API_KEY');
    expect(adapter.capabilities).toMatchObject({
      resume: true,
      fork: true,
      mcp: true,
      approvals: 'native',
      streaming: 'full',
    });
  });

  it('detectAuth: env keys, then the login file; never the secret itself', () => {
    expect(detectClaudeAuth({ ANTHROPIC_API_KEY: 'sk-x', HOME: '/nonexistent' })).toEqual({
      status: 'authenticated',
      method: 'api_key',
      details: ['ANTHROPIC_API_KEY'],
    });
    expect(detectClaudeAuth({ CLAUDE_CODE_OAUTH_TOKEN: 't', HOME: '/nonexistent' }).method).toBe('oauth');
    expect(detectClaudeAuth({ CLAUDE_CODE_USE_BEDROCK: '1', HOME: '/nonexistent' }).status).toBe('unknown');
    const none = detectClaudeAuth({ HOME: '/nonexistent' });
    expect(none.status).toBe('unauthenticated');
    expect(JSON.stringify(none)).not.toContain('sk-');
  });
});
