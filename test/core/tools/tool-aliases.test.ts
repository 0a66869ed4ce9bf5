import { describe, expect, it } from 'vitest';
import type { PermissionPolicy } from '../../../src/core/tools/permission-policy.ts';
import { decideAliased, decideWithoutArguments, toolNames } from '../../../src/core/tools/tool-aliases.ts';

const shell = { name: 'exec_command', aliases: ['shell', 'local_shell'] };

describe('toolNames', () => {
  it('lists the canonical name first', () => {
    expect(toolNames(shell)).toEqual(['exec_command', 'shell', 'local_shell']);
  });
});

describe('decideAliased', () => {
  it('applies a rule naming any alias to the one tool', () => {
    for (const name of ['exec_command', 'shell', 'local_shell', 'exec_*']) {
      const policy: PermissionPolicy = { default: 'ask', rules: [{ tool: name, decision: 'allow' }] };
      const verdict = decideAliased(policy, shell, { command: 'ls' });
      expect(verdict.decision, name).toBe('allow');
      expect(verdict.ruleIndex, name).toBe(0);
    }
  });

  it('lets the first matching rule in policy order win, not the strictest', () => {
    const allowFirst: PermissionPolicy = {
      default: 'ask',
      rules: [
        { tool: 'exec_command', decision: 'allow' },
        { tool: 'shell', decision: 'deny' },
      ],
    };
    expect(decideAliased(allowFirst, shell, { command: 'ls' })).toMatchObject({ decision: 'allow', ruleIndex: 0 });
    const denyFirst: PermissionPolicy = { default: 'allow', rules: [...(allowFirst.rules ?? [])].reverse() };
    expect(decideAliased(denyFirst, shell, { command: 'ls' })).toMatchObject({ decision: 'deny', ruleIndex: 0 });
  });

  it('checks `when` against the call and falls back to the default', () => {
    const policy: PermissionPolicy = {
      default: 'allow',
      rules: [{ tool: 'local_shell', decision: 'deny', when: { command: 'rm *' } }],
    };
    expect(decideAliased(policy, shell, { command: 'rm -rf /' }).decision).toBe('deny');
    expect(decideAliased(policy, shell, { command: 'ls' })).toEqual({ decision: 'allow' });
  });
});

describe('decideWithoutArguments', () => {
  it('resolves one decision over all names: an allow on the canonical name is not undone by the default', () => {
    const policy: PermissionPolicy = { default: 'ask', rules: [{ tool: 'exec_command', decision: 'allow' }] };
    expect(decideWithoutArguments(policy, shell)).toBe('allow');
    expect(decideWithoutArguments({ default: 'ask', rules: [{ tool: 'shell', decision: 'allow' }] }, shell)).toBe(
      'allow',
    );
    expect(decideWithoutArguments({ default: 'ask' }, shell)).toBe('ask');
  });

  it('takes the first rule without `when` in policy order', () => {
    const policy: PermissionPolicy = {
      default: 'allow',
      rules: [
        { tool: 'local_shell', decision: 'deny' },
        { tool: 'exec_command', decision: 'allow' },
      ],
    };
    expect(decideWithoutArguments(policy, shell)).toBe('deny');
  });

  it('counts deny/ask rules on arguments as ask and passes over allow rules on arguments', () => {
    const narrowedDeny: PermissionPolicy = {
      default: 'allow',
      rules: [{ tool: 'shell', decision: 'deny', when: { command: 'rm *' } }],
    };
    expect(decideWithoutArguments(narrowedDeny, shell)).toBe('ask');
    const narrowedAllow: PermissionPolicy = {
      default: 'deny',
      rules: [{ tool: 'shell', decision: 'allow', when: { command: 'npm test' } }],
    };
    expect(decideWithoutArguments(narrowedAllow, shell)).toBe('deny');
    const narrowedThenDeny: PermissionPolicy = {
      default: 'allow',
      rules: [
        { tool: 'shell', decision: 'ask', when: { command: 'git *' } },
        { tool: 'exec_command', decision: 'deny' },
      ],
    };
    expect(decideWithoutArguments(narrowedThenDeny, shell)).toBe('deny');
  });
});
