import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { permissionReason } from '../../../../src/adapters/protocols/acp/acp-permission-reason.ts';

const request = (extra: Partial<RequestPermissionRequest>, rawInput?: unknown): RequestPermissionRequest => ({
  sessionId: 's',
  toolCall: { toolCallId: 't', ...(rawInput === undefined ? {} : { rawInput }) },
  options: [],
  ...extra,
});

describe('permissionReason', () => {
  it('reads ACP v2 permission prompt, the AIR field, then the tool input', () => {
    expect(
      permissionReason(request({ _meta: { permission_prompt: { title: 'Run command?', description: 'v2 says' } } })),
    ).toBe('v2 says');
    expect(
      permissionReason(request({ _meta: { jetbrains: { air: { permission: { description: 'air says' } } } } })),
    ).toBe('air says');
    expect(permissionReason(request({}, { command: 'x', justification: ' why ' }))).toBe('why');
    expect(permissionReason(request({}, { command: 'x', description: 'Print a marker' }))).toBe('Print a marker');
  });

  it('none, blank or not text → undefined; a long one is cut', () => {
    expect(permissionReason(request({}, { command: 'x' }))).toBeUndefined();
    expect(permissionReason(request({}, { justification: '   ' }))).toBeUndefined();
    expect(permissionReason(request({ _meta: { permission_prompt: 'x' } }, { reason: 42 }))).toBeUndefined();
    expect(permissionReason(request({}, { reason: 'a'.repeat(2000) }))?.length).toBe(500);
  });
});
