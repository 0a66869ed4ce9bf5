import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot, ProbotOctokit } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { appPrivateKey, serveApp } from './serve-middleware.ts';

const SECRET = 'webhook-secret-for-tests';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Octokits Probot built: the app's own, and one per delivery that reaches an `app.on` handler. */
let octokitsBuilt = 0;
class CountingOctokit extends ProbotOctokit {
  constructor(...args: ConstructorParameters<typeof ProbotOctokit>) {
    super(...args);
    octokitsBuilt++;
  }
}

/** A real Probot (`createNodeMiddleware`, as a serverless host mounts it) with the app, on 127.0.0.1. */
async function mount(options: { failRecords?: number; transient?: boolean } = {}) {
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-record-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const sqlite = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
  cleanups.push(() => sqlite.close());
  let failures = options.failRecords ?? 0;
  const store: RunStore = {
    ...sqlite,
    recordEvent: async (event, subjectKey) => {
      if (failures > 0) {
        failures--;
        throw options.transient
          ? Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
          : new Error('the store is unavailable');
      }
      return sqlite.recordEvent(event, subjectKey);
    },
  };
  const privateKey = appPrivateKey();
  const probot = new Probot({ appId: 1, privateKey, secret: SECRET, logLevel: 'fatal', Octokit: CountingOctokit });
  const url = await serveApp({ probot, store, root }, cleanups);
  const post = async (name: string, body: string, delivery: string, signature = sign(body)) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': name,
        'x-github-delivery': delivery,
        'x-hub-signature-256': signature,
      },
      body,
    });
    return { status: response.status, text: await response.text() };
  };
  return { probot, store: sqlite, post };
}

const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
/** A comment on issue `number`, with a comment id of its own (one subject per comment). */
const comment = (text: string, number = 1) => {
  const payload = webhookPayload('issue_comment', 'created', { owner: 'octo', repo: 'demo', body: text, number });
  (payload.comment as { id: number }).id = 1000 + number;
  payload.installation = { id: 7 };
  return JSON.stringify(payload);
};

describe('recordWebhooks (deliveries recorded at the webhooks’ entry points)', () => {
  it('records handled deliveries over HTTP without Probot building an Octokit for each', async () => {
    const { store, post } = await mount();
    const before = octokitsBuilt;
    for (let i = 0; i < 5; i++) {
      expect(await post('issue_comment', comment(`comment ${i}`, 10 + i), `d-${i}`)).toEqual({
        status: 200,
        text: 'ok\n',
      });
    }
    expect(octokitsBuilt - before).toBe(0);
    const taken = [];
    for (let event = await store.takeEvent(); event !== undefined; event = await store.takeEvent()) taken.push(event);
    taken.sort((a, b) => a.deliveryId.localeCompare(b.deliveryId));
    expect(taken.map((e) => [e.deliveryId, e.name, (e.payload as { comment: { body: string } }).comment.body])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`d-${i}`, 'issue_comment', `comment ${i}`]),
    );
    expect(taken[0]).toMatchObject({ installationId: 7, orderKey: 'octo/demo#10' });
  });

  it('another app on the same Probot still gets every event, handled or not, with its context', async () => {
    const { probot, store, post } = await mount();
    const before = octokitsBuilt;
    const seen: string[] = [];
    probot.on(['issue_comment.created', 'pull_request.closed'], async (context) => {
      seen.push(`${context.name}:${context.id}:${typeof context.octokit.rest.issues.createComment}`);
    });
    expect((await post('issue_comment', comment('@agent fix it'), 'c-1')).status).toBe(200);
    const closed = JSON.stringify(webhookPayload('pull_request', 'closed'));
    expect((await post('pull_request', closed, 'p-1')).status).toBe(200);
    expect(seen).toEqual(['issue_comment:c-1:function', 'pull_request:p-1:function']);
    expect(octokitsBuilt - before).toBe(2); // Probot's per-event Octokit, for that app's handler (the counter counts)
    expect(await store.takeEvent()).toMatchObject({ deliveryId: 'c-1' });
    expect(await store.takeEvent()).toBeUndefined(); // a closed pull request is not the app's
  });

  it('probot.receive records as the HTTP path does, and a redelivery starts nothing new', async () => {
    const { probot, store } = await mount();
    const payload = JSON.parse(comment('@agent fix it')) as never;
    await probot.receive({ id: 'r-1', name: 'issue_comment', payload });
    await probot.receive({ id: 'r-1', name: 'issue_comment', payload });
    expect(await store.takeEvent()).toMatchObject({ deliveryId: 'r-1' });
    expect(await store.takeEvent()).toBeUndefined();
  });

  it('a bad signature or an unreadable body is refused with 400 and recorded nowhere', async () => {
    const { store, post } = await mount();
    const body = comment('@agent fix it');
    const forged = await post('issue_comment', body, 'f-1', sign(`${body} `));
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('signature does not match');
    const garbled = await post('issue_comment', '{"action": "created", ', 'g-1');
    expect(garbled.status).toBe(400);
    expect(garbled.text).toContain('Invalid JSON');
    expect(await store.takeEvent()).toBeUndefined();
  });

  it('while the database is away (a dropped connection), a delivery is acknowledged and recorded once it is back', async () => {
    const { store, post } = await mount({ failRecords: 3, transient: true });
    expect((await post('issue_comment', comment('@agent fix it'), 't-1')).status).toBe(200);
    expect((await post('issue_comment', comment('@agent and this', 2), 't-2')).status).toBe(200);
    // Recorded in the order they came.
    const taken: string[] = [];
    for (let i = 0; i < 200 && taken.length < 2; i++) {
      const next = await store.takeEvent(60_000);
      if (next) {
        taken.push(next.deliveryId);
        await store.completeEvent(next.deliveryId);
      } else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(taken).toEqual(['t-1', 't-2']);
  });

  it('a store failure answers 500, so GitHub shows the delivery failed; its redelivery is recorded', async () => {
    const { store, post } = await mount({ failRecords: 1 });
    const body = comment('@agent fix it');
    const failed = await post('issue_comment', body, 's-1');
    expect(failed.status).toBe(500);
    expect(failed.text).toContain('the store is unavailable');
    expect(await store.takeEvent()).toBeUndefined();
    expect((await post('issue_comment', body, 's-1')).status).toBe(200);
    expect(await store.takeEvent()).toMatchObject({ deliveryId: 's-1' });
  });
});
