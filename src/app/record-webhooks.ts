import type { Probot } from 'probot';
import type { RunStore } from './store/run-store.ts';
import { webhookSubjectKey } from './webhook-subject-key.ts';

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
 * of the same id, or another delivery about the same subject (the same comment, review or issue
 * change: `webhookSubjectKey`), is recorded as such and starts nothing new.
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
    const subjectKey = webhookSubjectKey(context.name, payload);
    const orderKey = webhookOrderKey(payload);
    const outcome = await (await store()).recordEvent(
      {
        deliveryId: context.id,
        name: context.name,
        payload,
        installationId,
        receivedAt: Date.now(),
        ...(orderKey === undefined ? {} : { orderKey }),
      },
      subjectKey,
    );
    if (outcome === 'redelivery') log(`delivery ${context.id} (${context.name}) was recorded before; ignored`);
    if (outcome === 'duplicate') {
      log(
        `delivery ${context.id} (${context.name}) is about ${subjectKey}, which an earlier delivery carried; ignored`,
      );
    }
  });
}

/**
 * The issue or pull request a delivery is about, `owner/repo#N` (lower case), so that the dispatcher
 * handles one conversation's events one at a time and in order (a mention before the `@agent cancel`
 * that follows it). Undefined for events about no issue (a check-run button): they need no order.
 */
export function webhookOrderKey(payload: unknown): string | undefined {
  const p = record(payload);
  const fullName = record(p.repository).full_name;
  const number = record(p.issue).number ?? record(p.pull_request).number;
  if (typeof fullName !== 'string' || typeof number !== 'number') return undefined;
  return `${fullName.toLowerCase()}#${number}`;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
