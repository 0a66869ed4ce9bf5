import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/core/tools/approval-channel.ts';
import { autoApprovalChannel } from '../../../src/core/tools/auto-approval-channel.ts';
import { createMemoryApprovalChannel } from '../../../src/core/tools/memory-approval-channel.ts';

const request = (approvalId: string): ApprovalRequest => ({ approvalId, runId: 'r1', toolName: 'bash', input: {} });

describe('createMemoryApprovalChannel', () => {
  it('lists pending requests, tells the listener and resolves them', async () => {
    const seen: string[] = [];
    const channel = createMemoryApprovalChannel({ onRequest: (r) => seen.push(r.approvalId) });
    const a = channel.request(request('a'), new AbortController().signal);
    const b = channel.request(request('b'), new AbortController().signal);
    expect(seen).toEqual(['a', 'b']);
    expect(channel.pending().map((r) => r.approvalId)).toEqual(['a', 'b']);
    expect(channel.resolve('a', { kind: 'approve', scope: 'once', by: 'alice' })).toBe(true);
    expect(channel.resolve('a', { kind: 'deny', reason: 'late' })).toBe(false);
    expect(channel.resolve('nope', { kind: 'deny', reason: 'x' })).toBe(false);
    channel.resolve('b', { kind: 'deny', reason: 'no' });
    await expect(a).resolves.toEqual({ kind: 'approve', scope: 'once', by: 'alice' });
    await expect(b).resolves.toEqual({ kind: 'deny', reason: 'no' });
    expect(channel.pending()).toEqual([]);
  });

  it('denies with timedOut after its timeout', async () => {
    const channel = createMemoryApprovalChannel({ timeoutMs: 20 });
    const decision = await channel.request(request('a'), new AbortController().signal);
    expect(decision).toMatchObject({ kind: 'deny', timedOut: true });
    expect(channel.pending()).toEqual([]);
  });

  it('denies on abort, also when already aborted', async () => {
    const channel = createMemoryApprovalChannel();
    const controller = new AbortController();
    const pending = channel.request(request('a'), controller.signal);
    controller.abort();
    await expect(pending).resolves.toMatchObject({ kind: 'deny' });
    expect(channel.pending()).toEqual([]);
    await expect(channel.request(request('b'), controller.signal)).resolves.toMatchObject({ kind: 'deny' });
  });

  it('denies when the listener throws, and a duplicate id', async () => {
    const failing = createMemoryApprovalChannel({
      onRequest: () => {
        throw new Error('boom');
      },
    });
    await expect(failing.request(request('a'), new AbortController().signal)).resolves.toEqual({
      kind: 'deny',
      reason: 'the approval listener failed: boom',
    });
    const channel = createMemoryApprovalChannel();
    void channel.request(request('a'), new AbortController().signal);
    await expect(channel.request(request('a'), new AbortController().signal)).resolves.toMatchObject({ kind: 'deny' });
    expect(channel.pending()).toHaveLength(1);
  });
});

describe('autoApprovalChannel', () => {
  it('approves or denies everything', async () => {
    const signal = new AbortController().signal;
    await expect(autoApprovalChannel('approve').request(request('a'), signal)).resolves.toEqual({
      kind: 'approve',
      scope: 'once',
      by: 'auto',
    });
    await expect(autoApprovalChannel('deny', { by: 'ci' }).request(request('a'), signal)).resolves.toMatchObject({
      kind: 'deny',
      by: 'ci',
    });
    await expect(autoApprovalChannel('approve').request(request('a'), AbortSignal.abort())).resolves.toMatchObject({
      kind: 'deny',
    });
  });
});
