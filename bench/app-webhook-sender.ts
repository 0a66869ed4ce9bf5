import { randomUUID } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { signWebhook } from '../test/app-e2e/signed-webhook.ts';

/** One delivery's outcome: its status (0 when the request failed) and its time to the full response. */
export interface Acknowledgement {
  status: number;
  ms: number;
  error?: string;
}

/** Sends signed webhooks over keep-alive connections, the way GitHub's hookshot would. */
export interface WebhookSender {
  /** POSTs one delivery (a fresh delivery id) and resolves when the response has been read. */
  send(name: string, payload: unknown): Promise<Acknowledgement>;
  close(): void;
}

/**
 * A sender for one webhook URL and secret; `maxSockets` bounds the open connections. Idle
 * connections are closed after 4 s, before the server's 5 s keep-alive timeout closes them: reusing
 * a socket the server is closing at that moment fails with `socket hang up` (a client-side race).
 */
export function createWebhookSender(url: string, secret: string, maxSockets = 256): WebhookSender {
  const agent = new Agent({ keepAlive: true, maxSockets, timeout: 4000 });
  const target = new URL(url);
  return {
    send(name, payload) {
      const body = Buffer.from(JSON.stringify(payload));
      const headers = {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'GitHub-Hookshot/bench',
        'x-github-event': name,
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signWebhook(secret, body.toString('utf8')),
      };
      return new Promise((resolve) => {
        const start = performance.now();
        const req = request(
          { agent, method: 'POST', host: target.hostname, port: target.port, path: target.pathname, headers },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
            res.on('error', (error) => resolve({ status: 0, ms: performance.now() - start, error: error.message }));
          },
        );
        req.on('error', (error) => resolve({ status: 0, ms: performance.now() - start, error: error.message }));
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/**
 * Warms this process's HTTP client: sends `payloads` through a sender of its own, `concurrency` at a
 * time, to a throwaway server in this process that answers at once, then closes both. GitHub's
 * senders are long-running; a cold client here needs ~13 ms to issue its first 20 requests, which
 * spreads a burst's connections out and hides how the server accepts them.
 */
export async function warmUpClient(payloads: readonly unknown[], concurrency: number): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the warm-up server has no port');
  const sender = createWebhookSender(`http://127.0.0.1:${address.port}/`, 'warm-up');
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < payloads.length) await sender.send('issue_comment', payloads[next++]);
      }),
    );
  } finally {
    sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The outcome of an open-loop send. */
export interface OpenLoopResult {
  acknowledgements: Acknowledgement[];
  /** How late the sends left against their schedule, worst case (this process's own lag). */
  maxLagMs: number;
  elapsedMs: number;
}

/**
 * Open loop: delivery `i` is sent at `start + i / rate` by the clock, whatever the earlier ones are
 * doing (a late tick sends every delivery that is due); resolves when every response arrived.
 */
export async function sendOpenLoop(options: {
  sender: WebhookSender;
  name: string;
  payloads: readonly unknown[];
  perSecond: number;
}): Promise<OpenLoopResult> {
  const { sender, name, payloads, perSecond } = options;
  const pending: Promise<Acknowledgement>[] = [];
  const start = performance.now();
  let maxLagMs = 0;
  let next = 0;
  while (next < payloads.length) {
    const now = performance.now();
    while (next < payloads.length && start + (next * 1000) / perSecond <= now) {
      maxLagMs = Math.max(maxLagMs, now - (start + (next * 1000) / perSecond));
      pending.push(sender.send(name, payloads[next]));
      next++;
    }
    if (next < payloads.length) {
      const due = start + (next * 1000) / perSecond;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  }
  const acknowledgements = await Promise.all(pending);
  return { acknowledgements, maxLagMs, elapsedMs: performance.now() - start };
}
