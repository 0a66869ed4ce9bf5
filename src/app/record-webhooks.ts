import type { Probot } from 'probot';
import type { RunStore } from './store/run-store.ts';

/** The webhooks the app acts on (each recorded, then read by the dispatcher). */
export const HANDLED_EVENTS = [
  'issue_comment.created',
  'pull_request_review_comment.created',
  'pull_request_review.submitted',
  'pull_request.synchronize',
  'issues.opened',
  'issues.assigned',
  'issues.labeled',
  'check_run.requested_action',
] as const;

/**
 * Registers handlers that only acknowledge: each delivery is recorded in the store under its
 * `X-GitHub-Delivery` id and the handler returns (GitHub wants an answer within 10 s). A redelivery
 * of the same id is recorded once, so it starts nothing new.
 */
export function recordWebhooks(
  app: Pick<Probot, 'on'>,
  store: () => Promise<RunStore>,
  log: (line: string) => void,
): void {
  app.on([...HANDLED_EVENTS], async (context) => {
    const payload: unknown = context.payload;
    const installation = (payload as { installation?: { id?: unknown } | null }).installation;
    const installationId = typeof installation?.id === 'number' ? installation.id : undefined;
    const recorded = await (await store()).recordEvent({
      deliveryId: context.id,
      name: context.name,
      payload,
      installationId,
      receivedAt: Date.now(),
    });
    if (!recorded) log(`delivery ${context.id} (${context.name}) was recorded before; ignored`);
  });
}
