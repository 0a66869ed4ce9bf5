import { z } from 'zod';
import { answerFromReview } from '../approvals/answer-from.ts';
import { type ButtonPress, parseActionIdentifier } from '../approvals/approval-buttons.ts';
import type { ApprovalAnswer } from '../approvals/github-approval-channel.ts';
import type { RepoRef } from '../github-api.ts';
import { basePayloadSchema, numberSchema, parsePayload, payloadCommon } from './payload-schemas.ts';
import { readTriggerEvent } from './read-trigger-event.ts';
import type { Actor } from './trigger-event.ts';

/**
 * What a webhook says about approvals, apart from `/approve` and `/deny` comments (which
 * `decideTrigger` reads with the other commands):
 * - `void`: a push to a pull request (`pull_request.synchronize`): its pending approvals were asked on an older commit;
 * - `button`: a press of a check run's Approve / Deny button (`check_run.requested_action`), for the front end to
 *   resolve against the run named by the check run's `external_id`;
 * - `answer`: a submitted review that approves or requests changes; `alsoAsks` when it has a body, which may hold a
 *   command too (the event then goes on to `decideTrigger`).
 */
export type ApprovalEvent =
  | { kind: 'void'; repo: RepoRef; number: number; reason: string }
  | { kind: 'button'; repo: RepoRef; checkRunExternalId: string | undefined; press: ButtonPress; actor: Actor }
  | { kind: 'answer'; repo: RepoRef; number: number; answer: ApprovalAnswer; alsoAsks: boolean };

const synchronizeSchema = basePayloadSchema.extend({
  action: z.literal('synchronize'),
  pull_request: z.object({ number: numberSchema }).loose(),
  after: z.string().nullish(),
});

const requestedActionSchema = basePayloadSchema.extend({
  action: z.literal('requested_action'),
  check_run: z.object({ external_id: z.string().nullish() }).loose(),
  requested_action: z.object({ identifier: z.string() }).loose(),
});

const actionSchema = z.object({ action: z.string() }).loose();

/**
 * Reduces a webhook payload to an {@link ApprovalEvent}, or undefined when it says nothing about
 * approvals (another event or action, a button that is not an approval button, a review that
 * only comments). Pure: the answer is read as the event carried it; who gave it and whether it
 * counts (approver rule, head commit) is the approval channel's decision.
 *
 * @throws TriggerPayloadError when the payload of such an event lacks a field the answer needs.
 */
export function readApprovalEvent(eventName: string, payload: unknown): ApprovalEvent | undefined {
  const action = actionSchema.safeParse(payload).data?.action;
  if (eventName === 'pull_request' && action === 'synchronize') {
    const p = parsePayload(eventName, synchronizeSchema, payload);
    const after = p.after ? p.after.slice(0, 7) : 'a new commit';
    return {
      kind: 'void',
      repo: payloadCommon(eventName, p).repo,
      number: p.pull_request.number,
      reason: `a new commit (${after}) was pushed to the pull request`,
    };
  }
  if (eventName === 'check_run' && action === 'requested_action') {
    const p = parsePayload(eventName, requestedActionSchema, payload);
    const press = parseActionIdentifier(p.requested_action.identifier);
    if (press === undefined) return undefined;
    const { repo, actor } = payloadCommon(eventName, p);
    return { kind: 'button', repo, checkRunExternalId: p.check_run.external_id || undefined, press, actor };
  }
  if (eventName === 'pull_request_review') {
    const event = readTriggerEvent(eventName, payload);
    if (event === undefined || event.source.kind !== 'review' || event.number === undefined) return undefined;
    const answer = answerFromReview({
      state: event.source.state,
      body: event.text,
      actor: event.actor,
      commitSha: event.reviewCommitSha,
      submittedAt: event.givenAt,
    });
    if (answer === undefined) return undefined;
    return { kind: 'answer', repo: event.repo, number: event.number, answer, alsoAsks: event.text.trim() !== '' };
  }
  return undefined;
}
