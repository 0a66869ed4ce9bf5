import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../../src/adapters/builtin-registry.ts';
import type { LaunchContext } from '../../../src/core/adapter/index.ts';
import { decide, type PermissionPolicy } from '../../../src/core/tools/permission-policy.ts';
import { policyForAgent } from '../../../src/core/tools/policy-for-agent.ts';

const DENY_SHELL: PermissionPolicy = {
  default: 'allow',
  rules: [{ tool: 'shell', decision: 'deny', reason: 'no commands' }],
};

describe('policyForAgent', () => {
  it('follows each rule on a policy name with the same rule for the agent’s own tools, in place', () => {
    const policy: PermissionPolicy = {
      default: 'ask',
      rules: [
        { tool: 'shell', decision: 'allow', when: { command: 'git *' } },
        { tool: 'shell', decision: 'deny' },
        { tool: 'mcp__*', decision: 'allow' },
      ],
    };
    const mapped = policyForAgent(policy, { shell: ['Bash'] });
    expect(mapped.rules?.map((r) => [r.tool, r.decision])).toEqual([
      ['shell', 'allow'],
      ['Bash', 'allow'],
      ['shell', 'deny'],
      ['Bash', 'deny'],
      ['mcp__*', 'allow'],
    ]);
    expect(decide(mapped, 'Bash', { command: 'git status' }).decision).toBe('allow');
    expect(decide(mapped, 'Bash', { command: 'rm -rf /' }).decision).toBe('deny');
    expect(policyForAgent(policy, undefined)).toBe(policy);
  });

  // Issue 32: a policy that denies `shell` — the name docs/repo-config.md uses — must deny every
  // agent's own command tools, not only those named the same.
  it.each([
    ['claude', 'Bash'],
    ['codex', 'exec_command'],
    ['gemini', 'run_shell_command'],
    ['qwen', 'run_shell_command'],
    ['copilot', 'bash'],
    ['cursor', 'shell'],
    ['opencode', 'bash'],
    ['kilo', 'bash'],
    ['pi', 'bash'],
    ['omp', 'bash'],
    ['openclaw', 'exec'],
    ['hermes', 'terminal'],
  ])('%s: a `shell` deny denies %s', (id, tool) => {
    const adapter = createBuiltinRegistry().get(id);
    const mapped = policyForAgent(DENY_SHELL, adapter.toolNames);
    expect(decide(mapped, tool, { command: 'ls' })).toMatchObject({
      decision: 'deny',
      rule: { reason: 'no commands' },
    });
  });

  it('claude: the mapped policy reaches its launch flags (Bash disallowed)', async () => {
    const adapter = createBuiltinRegistry().get('claude');
    if (adapter.launch.kind !== 'process') throw new Error('claude launches a process');
    const ctx = {
      request: { prompt: 'x', cwd: '/w' },
      runId: 'r',
      taskId: 'r',
      leaseToken: '',
      leaseEpoch: 0,
      mcpUrl: '',
      mcpToken: '',
      workspacePath: '/w',
      env: {},
      debug: false,
      policy: policyForAgent(DENY_SHELL, adapter.toolNames),
    } as LaunchContext;
    const plan = await adapter.launch.plan(ctx);
    expect(plan.args.join(' ')).toMatch(/--disallowedTools \S*Bash/);
  });
});
