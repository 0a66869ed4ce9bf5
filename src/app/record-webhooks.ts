import type { Probot } from 'probot';
import type { DeliveryTurns } from './delivery-turns.ts';
import { createRecordBacklog } from './record-backlog.ts';
import type { RunStore, StoredEvent } from './store/run-store.ts';
import { webhookSubjectKey } from './webhook-subject-key.ts';
import type { WebhookTraffic } from './webhook-traffic.ts';

/** The webhooks the app acts on (each recorded, then read by the dispatcher). */
export const HANDLED_EVENTS = [
  'issue_comment.created',
  'pull_request_review_comment.created',
  'pull_request_review.submitted',
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.reopened',
  'pull_request.ready_for_review',
  'issues.opened',
  'issues.assigned',
  'issues.labeled',
  'check_run.requested_action',
] as const;

/** The handled webhooks as `name.action`, for a look-up per delivery. */
const HANDLED = new Set<string>(HANDLED_EVENTS);

/** Probot's `@octokit/webhooks` instance. */
type Webhooks = Probot['webhooks'];
/** The part of it the recorder wraps (public methods of `@octokit/webhooks`). */
type WebhookEntries = Pick<Webhooks, 'verify' | 'receive' | 'verifyAndReceive'>;

/**
 * Records each delivery the app acts on in the store under its `X-GitHub-Delivery` id, and only
 * then lets the webhook be acknowledged (GitHub wants an answer within 10 s). A redelivery of the
 * same id, or another delivery about the same subject (the same comment, review or issue change:
 * `webhookSubjectKey`), is recorded as such and starts nothing new.
 *
 * It wraps the two entry points of Probot's `Webhooks` instead of registering an `app.on` handler:
 * a handler gets Probot's per-event context, an installation Octokit built for every delivery
 * before any handler runs, which the app never uses (the dispatcher reads events from the store).
 * That cost, and its garbage, sat in front of every acknowledgement of a burst. Now:
 * - `verifyAndReceive` (Probot's HTTP middleware): checks the signature and parses the body as
 *   `@octokit/webhooks` does (a bad signature or body is handed to the original, which answers 400
 *   and tells the error handlers), then `receive`;
 * - `receive` (also `probot.receive`): records a handled event, then passes it on to whatever else
 *   is registered on this Probot (another app loaded beside this one still gets its events).
 * With `turns`, a delivery's work (signature, parse, record) waits for a turn of the event loop of
 * its own while a burst lasts (`createDeliveryTurns`), so that a burst's connections are all accepted
 * early. While the database fails for a passing reason (a restart, a failover), a delivery is held in
 * memory, acknowledged, and recorded in order once the database is back (`createRecordBacklog`;
 * `onBacklog` is told when deliveries begin and stop waiting). Any other store failure rejects as
 * `@octokit/webhooks` does (an `AggregateError`, status 500), so GitHub shows the delivery as failed
 * and it can be redelivered.
 */
export function recordWebhooks(
  webhooks: WebhookEntries,
  store: () => Promise<RunStore>,
  log: (line: string) => void,
  traffic?: Pick<WebhookTraffic, 'received'>,
  turns?: Pick<DeliveryTurns, 'take'>,
  backlogOptions: { onBacklog?: (waiting: number, error?: unknown) => void; firstDelayMs?: number } = {},
): void {
  const receive = webhooks.receive;
  const backlog = createRecordBacklog<{ event: StoredEvent; subjectKey: string | undefined }>({
    record: ({ event, subjectKey }) => recordNow(event, subjectKey),
    describe: ({ event }) => `delivery ${event.deliveryId} (${event.name})`,
    log,
    onChange: backlogOptions.onBacklog,
    firstDelayMs: backlogOptions.firstDelayMs,
  });
  const verifyAndReceive = webhooks.verifyAndReceive;

  webhooks.receive = async (event) => {
    const payload: unknown = event.payload;
    const action = (payload as { action?: unknown } | null)?.action;
    if (HANDLED.has(typeof action === 'string' ? `${event.name}.${action}` : event.name)) {
      try {
        await record(event.id, event.name, payload);
      } catch (error) {
        throw Object.assign(new AggregateError([error], error instanceof Error ? error.message : String(error)), {
          event,
        });
      }
    }
    return receive(event);
  };

  webhooks.verifyAndReceive = async (event) => {
    traffic?.received();
    await turns?.take();
    if (!(await webhooks.verify(event.payload, event.signature).catch(() => false))) return verifyAndReceive(event);
    let payload: unknown;
    try {
      payload = JSON.parse(event.payload);
    } catch {
      return verifyAndReceive(event);
    }
    // The name and payload are GitHub's, as `@octokit/webhooks` passes them on unchecked.
    return webhooks.receive({ id: event.id, name: event.name, payload } as Parameters<Webhooks['receive']>[0]);
  };

  async function record(deliveryId: string, name: string, payload: unknown): Promise<void> {
    const installation = (payload as { installation?: { id?: unknown } | null }).installation;
    const installationId = typeof installation?.id === 'number' ? installation.id : undefined;
    const subjectKey = webhookSubjectKey(name, payload);
    const orderKey = webhookOrderKey(payload);
    const event: StoredEvent = {
      deliveryId,
      name,
      payload,
      installationId,
      receivedAt: Date.now(),
      ...(orderKey === undefined ? {} : { orderKey }),
    };
    await backlog.record({ event, subjectKey });
  }

  async function recordNow(event: StoredEvent, subjectKey: string | undefined): Promise<void> {
    const { deliveryId, name } = event;
    const outcome = await (await store()).recordEvent(event, subjectKey);
    if (outcome === 'redelivery') log(`delivery ${deliveryId} (${name}) was recorded before; ignored`);
    if (outcome === 'duplicate') {
      log(`delivery ${deliveryId} (${name}) is about ${subjectKey}, which an earlier delivery carried; ignored`);
    }
  }
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
