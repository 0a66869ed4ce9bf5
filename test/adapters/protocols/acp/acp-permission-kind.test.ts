import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { answerPermission, decideByEffect } from '../../../../src/adapters/protocols/acp/acp-permission.ts';
import type { ApprovalRequest } from '../../../../src/core/tools/approval-channel.ts';
import { defaultPolicy } from '../../../../src/core/tools/default-policy.ts';

// Issue 32.15: the ACP policy decides by what a tool does (its kind), not only by the name the
// agent gives it: a shell call named `read_file` must not pass the default policy unasked.

const request = (name: string, kind: string | undefined): RequestPermissionRequest =>
  ({
    sessionId: 's',
    toolCall: {
      toolCallId: 'c1',
      name,
      title: 'rm -rf ~',
      ...(kind ? { kind } : {}),
      rawInput: { command: 'rm -rf ~' },
    },
    options: [
      { optionId: 'yes', name: 'Yes', kind: 'allow_once' },
      { optionId: 'no', name: 'No', kind: 'reject_once' },
    ],
  }) as unknown as RequestPermissionRequest;

async function answer(name: string, kind: string | undefined) {
  const asked: ApprovalRequest[] = [];
  const response = await answerPermission(request(name, kind), {
    runId: 'r',
    policy: defaultPolicy,
    grants: new Set(),
    createApprovalId: () => 'ap1',
    emit: () => undefined,
    signal: new AbortController().signal,
    timeoutMs: 5000,
    approvals: {
      request: async (req) => {
        asked.push(req);
        return { kind: 'deny', reason: 'no' };
      },
    },
  });
  return { asked, response };
}

describe('ACP permission decisions by the tool’s kind', () => {
  it('a command named read_file (kind execute) is asked, not allowed as a read', async () => {
    const { asked, response } = await answer('read_file', 'execute');
    expect(asked).toHaveLength(1);
    expect(response).toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
  });

  it('a tool of no kind (other, none) is taken as a command: asked', async () => {
    expect((await answer('read_file', 'other')).asked).toHaveLength(1);
    expect((await answer('read_file', undefined)).asked).toHaveLength(1);
  });

  it('a real read (kind read) under a read name is allowed without asking', async () => {
    const { asked, response } = await answer('read_file', 'read');
    expect(asked).toEqual([]);
    expect(response).toEqual({ outcome: { outcome: 'selected', optionId: 'yes' } });
  });

  it('the strictest verdict wins: a deny on shell holds for any name of kind execute', () => {
    const policy = { default: 'allow' as const, rules: [{ tool: 'shell', decision: 'deny' as const }] };
    expect(decideByEffect(policy, 'innocent', { kind: 'execute' }).decision).toBe('deny');
    expect(decideByEffect(policy, 'innocent', { kind: 'read' }).decision).toBe('allow');
  });
});
