import { createHmac, randomUUID } from 'node:crypto';

/** One webhook delivery as GitHub sends it. */
export interface WebhookDelivery {
  /** The event name (`X-GitHub-Event`). */
  name: string;
  payload: unknown;
  /** `X-GitHub-Delivery`; a fresh UUID when omitted. */
  id?: string;
}

/** What the app answered. */
export interface WebhookResponse {
  status: number;
  text: string;
  deliveryId: string;
}

/** The `X-Hub-Signature-256` header value GitHub computes: `sha256=` + HMAC-SHA256 of the raw body. */
export function signWebhook(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * POSTs a delivery to a webhook URL the way GitHub does: JSON body, event and delivery headers and
 * the body's signature made with `secret` (pass a wrong secret to forge a bad signature).
 */
export async function sendWebhook(url: string, secret: string, delivery: WebhookDelivery): Promise<WebhookResponse> {
  const body = JSON.stringify(delivery.payload);
  const deliveryId = delivery.id ?? randomUUID();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/e2e',
      'x-github-event': delivery.name,
      'x-github-delivery': deliveryId,
      'x-hub-signature-256': signWebhook(secret, body),
    },
    body,
  });
  return { status: response.status, text: await response.text(), deliveryId };
}
