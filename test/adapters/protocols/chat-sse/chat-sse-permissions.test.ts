import { describe, expect, it } from 'vitest';
import { chatSsePermissions } from '../../../../src/adapters/protocols/chat-sse/index.ts';

describe('chatSsePermissions', () => {
  it('leaves the field out without a policy or when everything is allowed', () => {
    expect(chatSsePermissions(undefined)).toBeUndefined();
    expect(chatSsePermissions({ default: 'allow', rules: [] })).toBeUndefined();
    expect(chatSsePermissions({ default: 'allow', rules: [{ tool: 'bash', decision: 'allow' }] })).toBeUndefined();
  });

  it('requires a relay for every tool when nothing is allowed outright', () => {
    expect(chatSsePermissions({ default: 'ask' })).toEqual({ allowlist: [] });
    expect(chatSsePermissions({ default: 'deny', rules: [] })).toEqual({ allowlist: [] });
  });

  it('allowlists only allow rules without `when` that no ask or deny rule precedes', () => {
    expect(
      chatSsePermissions({
        default: 'ask',
        rules: [
          { tool: 'read', decision: 'allow' },
          { tool: 'patch', decision: 'allow', when: { path: 'src/**' } },
          { tool: 'bash', decision: 'deny' },
          { tool: 'agent', decision: 'allow' },
        ],
      }),
    ).toEqual({ allowlist: [{ tool: 'read' }] });
  });

  it('keeps a `when` rule out of the server even with an allow default', () => {
    expect(
      chatSsePermissions({ default: 'allow', rules: [{ tool: 'patch', decision: 'allow', when: { path: 'src/**' } }] }),
    ).toEqual({ allowlist: [] });
  });
});
