import { describe, expect, it } from 'vitest';
import { decide, type PermissionPolicy, permissionPolicySchema } from '../../../src/core/tools/permission-policy.ts';

const policy: PermissionPolicy = {
  rules: [
    { tool: 'write_file', decision: 'allow', when: { path: 'src/**' } },
    { tool: 'bash', decision: 'deny', when: { command: 'rm *' }, reason: 'no deleting' },
    { tool: 'read_*', decision: 'allow' },
    { tool: '*', decision: 'ask' },
  ],
};

describe('decide', () => {
  it('lets the first matching rule win', () => {
    expect(decide(policy, 'write_file', { path: 'src/a/b.ts' })).toMatchObject({ decision: 'allow', ruleIndex: 0 });
    expect(decide(policy, 'write_file', { path: 'README.md' })).toMatchObject({ decision: 'ask', ruleIndex: 3 });
    expect(decide(policy, 'read_file', { path: '/etc/passwd' })).toMatchObject({ decision: 'allow', ruleIndex: 2 });
  });

  it('falls back to the default, ask unless set', () => {
    expect(decide({}, 'anything', {})).toEqual({ decision: 'ask' });
    expect(decide({ default: 'deny', rules: [] }, 'anything', {})).toEqual({ decision: 'deny' });
  });

  it('lets * cross slashes and lines in deny rules', () => {
    expect(decide(policy, 'bash', { command: 'rm -rf /' })).toMatchObject({
      decision: 'deny',
      rule: { reason: 'no deleting' },
    });
    expect(decide(policy, 'bash', { command: 'rm ../x' }).decision).toBe('deny');
    expect(decide(policy, 'bash', { command: 'echo hi\nrm -rf /' }).decision).toBe('deny');
    expect(decide(policy, 'bash', { command: 'ls -la' }).decision).toBe('ask');
  });

  it('keeps allow globs narrow: * stops at /, no .. segments, every array element', () => {
    const narrow: PermissionPolicy = {
      default: 'deny',
      rules: [
        { tool: 'write_file', decision: 'allow', when: { path: 'src/*' } },
        { tool: 'edit', decision: 'allow', when: { paths: 'src/**' } },
      ],
    };
    expect(decide(narrow, 'write_file', { path: 'src/a.ts' }).decision).toBe('allow');
    expect(decide(narrow, 'write_file', { path: 'src/a/b.ts' }).decision).toBe('deny');
    expect(decide(policy, 'write_file', { path: 'src/../../etc/passwd' }).decision).toBe('ask');
    expect(decide(narrow, 'edit', { paths: ['src/a', 'src/b/c'] }).decision).toBe('allow');
    expect(decide(narrow, 'edit', { paths: ['src/a', 'lib/b'] }).decision).toBe('deny');
    expect(decide(narrow, 'edit', { paths: [] }).decision).toBe('deny');
  });

  it('matches any element of an array in deny rules', () => {
    const p: PermissionPolicy = {
      default: 'allow',
      rules: [{ tool: 'edit', decision: 'deny', when: { paths: '.github/**' } }],
    };
    expect(decide(p, 'edit', { paths: ['src/a', '.github/workflows/ci.yml'] }).decision).toBe('deny');
  });

  it('requires every `when` key, accepts several globs and dotted paths', () => {
    const p: PermissionPolicy = {
      rules: [
        {
          tool: 'fetch',
          decision: 'allow',
          when: { url: ['https://example.com/**', 'https://x.org/**'], 'opts.method': 'GET' },
        },
      ],
    };
    expect(decide(p, 'fetch', { url: 'https://x.org/a', opts: { method: 'GET' } }).decision).toBe('allow');
    expect(decide(p, 'fetch', { url: 'https://x.org/a', opts: { method: 'POST' } }).decision).toBe('ask');
    expect(decide(p, 'fetch', { url: 'https://x.org/a' }).decision).toBe('ask');
    expect(decide(p, 'fetch', { url: 42, opts: { method: 'GET' } }).decision).toBe('ask');
  });

  it('matches numbers and booleans as text, objects never', () => {
    const p: PermissionPolicy = { rules: [{ tool: 't', decision: 'deny', when: { n: '4*', o: '*' } }] };
    expect(decide(p, 't', { n: 42, o: 'x' }).decision).toBe('deny');
    expect(decide(p, 't', { n: 42, o: { a: 1 } }).decision).toBe('ask');
  });
});

describe('permissionPolicySchema', () => {
  it('fills defaults and rejects unknown decisions', () => {
    expect(permissionPolicySchema.parse({})).toEqual({ default: 'ask', rules: [] });
    const bad = permissionPolicySchema.safeParse({ rules: [{ tool: 'x', decision: 'maybe' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['rules', 0, 'decision']);
  });
});
