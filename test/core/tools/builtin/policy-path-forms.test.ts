import { describe, expect, it } from 'vitest';
import { decide, type PermissionPolicy } from '../../../../src/core/tools/permission-policy.ts';

/**
 * Deny-rule bypasses by another spelling of the same path: each row must still be denied. A
 * symbolic-link spelling (`link/key` with `link -> secrets`) is closed by the tools, which refuse
 * any link (see workspace-escape.test.ts).
 */
const policy: PermissionPolicy = {
  default: 'allow',
  rules: [{ tool: '*_file', decision: 'deny', when: { path: 'secrets/**' } }],
};

describe('deny rules catch every spelling of a denied path', () => {
  const attacks: [string, string][] = [
    ['plain', 'secrets/key'],
    ['./ prefix', './secrets/key'],
    ['./ and doubled slashes', './/secrets//key'],
    ['sub/../', 'src/../secrets/key'],
    ['a/b/../../', 'a/b/../../secrets/key'],
    ['trailing slash', 'secrets/key/'],
    ['backslashes', 'secrets\\key'],
    ['./ with backslashes', '.\\secrets\\key'],
    ['absolute path inside the workspace', '/home/runner/work/repo/secrets/key'],
    ['absolute with ..', '/home/runner/work/repo/src/../secrets/key'],
    ['Unicode NFD of a denied NFC name', 'secr\u0065\u0301ts/../secrets/key'],
  ];
  it.each(attacks)('%s (%s) is denied', (_name, path) => {
    expect(decide(policy, 'read_file', { path }).decision).toBe('deny');
    expect(decide(policy, 'write_file', { path, content: 'x' }).decision).toBe('deny');
  });

  it('NFC and NFD spellings of a non-ASCII denied directory are both denied', () => {
    const unicode: PermissionPolicy = {
      default: 'allow',
      rules: [{ tool: 'read_file', decision: 'deny', when: { path: 'caf\u00e9/**' } }],
    };
    expect(decide(unicode, 'read_file', { path: 'caf\u00e9/x' }).decision).toBe('deny');
    expect(decide(unicode, 'read_file', { path: 'cafe\u0301/x' }).decision).toBe('deny');
  });
});

describe('allow rules match the canonical form only', () => {
  const allowSrc: PermissionPolicy = {
    default: 'ask',
    rules: [{ tool: 'write_file', decision: 'allow', when: { path: 'src/**' } }],
  };
  it.each([
    ['src/a.ts', 'allow'],
    ['./src/a.ts', 'allow'],
    ['src/../src/a.ts', 'allow'],
    ['src/../.git/config', 'ask'],
    ['src/../../outside', 'ask'],
    ['/abs/src/a.ts', 'ask'],
  ])('%s → %s', (path, decision) => {
    expect(decide(allowSrc, 'write_file', { path, content: 'x' }).decision).toBe(decision);
  });
});
