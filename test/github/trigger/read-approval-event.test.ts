import { describe, expect, it } from 'vitest';
import { readApprovalEvent } from '../../../src/github/trigger/read-approval-event.ts';
import { TriggerPayloadError } from '../../../src/github/trigger/trigger-payload-error.ts';
import { webhookPayload } from '../../support/webhook-payload.ts';

const place = { owner: 'octo', repo: 'demo', login: 'bob' };

function review(state: string, body: string | null): Record<string, unknown> {
  const payload = webhookPayload('pull_request_review', 'submitted', { ...place, number: 21 });
  const r = payload.review as Record<string, unknown>;
  r.state = state;
  r.body = body;
  return payload;
}

describe('readApprovalEvent', () => {
  it('a push to a pull request voids what is pending there, naming the new commit', () => {
    const payload = webhookPayload('pull_request', 'synchronize', { ...place, number: 21 });
    expect(readApprovalEvent('pull_request', payload)).toEqual({
      kind: 'void',
      repo: { owner: 'octo', repo: 'demo' },
      number: 21,
      reason: `a new commit (${String(payload.after).slice(0, 7)}) was pushed to the pull request`,
    });
  });

  it('an approval button press, with the check run that names the run and the sender', () => {
    const payload = webhookPayload('check_run', 'requested_action', place);
    (payload.check_run as Record<string, unknown>).external_id = 'run-1';
    payload.requested_action = { identifier: 'deny:k3v9q2xa' };
    expect(readApprovalEvent('check_run', payload)).toEqual({
      kind: 'button',
      repo: { owner: 'octo', repo: 'demo' },
      checkRunExternalId: 'run-1',
      press: { decision: 'deny', approvalIdPrefix: 'k3v9q2xa' },
      actor: { login: 'bob', type: 'User' },
    });
  });

  it('a button that is not an approval button, or a check run without an external id', () => {
    const payload = webhookPayload('check_run', 'requested_action', place);
    expect(readApprovalEvent('check_run', payload)).toBeUndefined(); // GitHub's sample: `lgtm|26764`
    payload.requested_action = { identifier: 'approve:k3v9' };
    expect(readApprovalEvent('check_run', payload)).toMatchObject({ kind: 'button', checkRunExternalId: undefined });
  });

  it.each([
    { state: 'approved', decision: 'approve' },
    { state: 'APPROVED', decision: 'approve' },
    { state: 'changes_requested', decision: 'deny' },
  ])('a review $state answers every pending approval on its commit, when it was submitted', ({ state, decision }) => {
    const payload = review(state, null);
    const r = payload.review as Record<string, string>;
    expect(readApprovalEvent('pull_request_review', payload)).toEqual({
      kind: 'answer',
      repo: { owner: 'octo', repo: 'demo' },
      number: 21,
      answer: {
        decision,
        reason: undefined,
        actor: { login: 'bob', type: 'User' },
        commitSha: r.commit_id,
        via: 'review',
        givenAt: r.submitted_at,
      },
      alsoAsks: false,
    });
  });

  it('a review that requests changes gives its body as the reason, and the body may ask for more', () => {
    const event = readApprovalEvent('pull_request_review', review('changes_requested', '  not this file  '));
    expect(event).toMatchObject({
      kind: 'answer',
      answer: { decision: 'deny', reason: 'not this file' },
      alsoAsks: true,
    });
  });

  it('a review that only comments, other events and other actions say nothing about approvals', () => {
    expect(readApprovalEvent('pull_request_review', review('commented', 'nice'))).toBeUndefined();
    expect(readApprovalEvent('pull_request', webhookPayload('pull_request', 'opened', place))).toBeUndefined();
    expect(readApprovalEvent('check_run', webhookPayload('check_run', 'completed', place))).toBeUndefined();
    expect(readApprovalEvent('push', { ref: 'refs/heads/main' })).toBeUndefined();
  });

  it('a malformed payload of such an event is a TriggerPayloadError naming the field', () => {
    const payload = webhookPayload('pull_request', 'synchronize', place);
    delete (payload.pull_request as Record<string, unknown>).number;
    expect(() => readApprovalEvent('pull_request', payload)).toThrow(TriggerPayloadError);
    expect(() => readApprovalEvent('pull_request', payload)).toThrow(/pull_request\.number/);
  });
});
