import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { AppStartError } from '../../src/app/app-start-error.ts';
import { createAgentMuxApp, createNodeMiddleware } from '../../src/app/index.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { resolveRetryPolicy } from '../../src/core/retry/index.ts';
import { startFakeGitHub } from '../support/fake-github/fake-github.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { appPrivateKey, serveApp, serveMiddleware } from './serve-middleware.ts';

const SECRET = 'webhook-secret-for-tests';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('createNodeMiddleware (serverless hosts)', () => {
  it('a signed webhook POSTed over HTTP is recorded once; a bad signature is refused', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-mux-mw-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const store = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
    cleanups.push(() => store.close());
    const privateKey = appPrivateKey();
    const probot = new Probot({ appId: 1, privateKey, secret: SECRET, logLevel: 'fatal' });
    const url = await serveApp({ probot, store, root }, cleanups);

    const payload = webhookPayload('issue_comment', 'created', { owner: 'octo', repo: 'demo', body: '@agent fix it' });
    const body = JSON.stringify(payload);
    const post = (signature: string, delivery: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issue_comment',
          'x-github-delivery': delivery,
          'x-hub-signature-256': signature,
        },
        body,
      });
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

    expect((await post(signature, 'd-1')).status).toBe(200);
    expect((await post(signature, 'd-1')).status).toBe(200);
    expect((await post('sha256=00', 'd-2')).status).toBeGreaterThanOrEqual(400);

    const event = await store.takeEvent();
    expect(event).toMatchObject({ deliveryId: 'd-1', name: 'issue_comment' });
    expect(await store.takeEvent()).toBeUndefined();
  });
});

/** A Probot pointed at a fake GitHub, the app mounted with createNodeMiddleware on 127.0.0.1. */
async function mountOnFakeGitHub(options: {
  startTimeoutMs: number;
  onStartFailure?: (error: unknown) => void;
  /** How `GET /app` fails, and how many times. Default: 502 (an outage) until `gh.clearFaults()`. */
  fault?: { status: number; message: string; times: number };
}) {
  const gh = await startFakeGitHub();
  cleanups.push(() => gh.close());
  const fault = options.fault ?? { status: 502, message: 'Server Error', times: Infinity };
  gh.failNext({ method: 'GET', path: '/app' }, { status: fault.status, body: { message: fault.message } }, fault.times);
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-ready-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const store = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
  cleanups.push(() => store.close());
  const privateKey = appPrivateKey();
  const probot = new Probot({ appId: 1, privateKey, secret: SECRET, baseUrl: gh.url, logLevel: 'fatal' });
  const app = createAgentMuxApp({
    store,
    settings: { ...readAppSettings({ AGENT_MUX_DATA_DIR: root }), startTimeoutMs: options.startTimeoutMs },
    startLoops: false,
    startRetry: resolveRetryPolicy({ backoffMs: 20, maxBackoffMs: 20, jitter: 0 }),
    ...(options.onStartFailure === undefined ? {} : { onStartFailure: options.onStartFailure }),
  });
  const middleware = await createNodeMiddleware(app, { probot });
  cleanups.push(() => app.stop());
  const base = await serveMiddleware(middleware, cleanups);
  const ready = async () => {
    const response = await fetch(`${base}/agent-mux/ready`);
    return { status: response.status, body: (await response.json()) as { ready: boolean; reason: string } };
  };
  return { gh, app, store, base, ready };
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /agent-mux/ready (readiness) while GET /app fails', () => {
  it('answers 503 with the reason while GitHub is down, keeps a delivery, and 200 once GET /app works', async () => {
    const { gh, app, store, base, ready } = await mountOnFakeGitHub({ startTimeoutMs: 0 });
    const failing = await eventually(async () => {
      const r = await ready();
      return r.body.reason.includes('502') ? r : undefined;
    }, 'a 502 reason');
    expect(failing.status).toBe(503);
    expect(failing.body).toMatchObject({ ready: false });
    expect(failing.body.reason).toContain(`GET /app failed: ${gh.url} answered 502 "Server Error"`);
    expect(app.readiness()).toMatchObject({ ready: false });

    // A delivery during the outage is recorded (GitHub gets its 200) …
    const payload = webhookPayload('issue_comment', 'created', { owner: 'octo', repo: 'demo', body: '@agent fix it' });
    const body = JSON.stringify(payload);
    const posted = await fetch(`${base}/api/github/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': 'during-outage',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(posted.status).toBe(200);

    // … the outage ends, the next attempt succeeds, and the dispatcher reads the delivery.
    gh.clearFaults();
    const healthy = await eventually(async () => {
      const r = await ready();
      return r.status === 200 ? r : undefined;
    }, 'readiness 200');
    expect(healthy.body).toMatchObject({ ready: true, reason: 'ready' });
    const attempts = gh.requests.filter((r) => r.method === 'GET' && r.path === '/app');
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.at(-1)?.status).toBe(200);
    const results = await (await app.runtime()).dispatchPending();
    expect(results).toHaveLength(1);
    expect(await store.takeEvent()).toBeUndefined();
  });

  it('each GET /app is one attempt of the start-up loop (no hidden Octokit retries of a 502)', async () => {
    const began = Date.now();
    const { gh, ready } = await mountOnFakeGitHub({
      startTimeoutMs: 0,
      fault: { status: 502, message: 'Bad Gateway', times: 3 },
    });
    await eventually(async () => ((await ready()).status === 200 ? true : undefined), 'readiness 200');
    // Octokit's retry plugin would wait 1 s, 4 s and 9 s between these; the start-up loop waits 20 ms.
    expect(Date.now() - began).toBeLessThan(4000);
    expect(gh.requests.filter((r) => r.path === '/app').map((r) => r.status)).toEqual([502, 502, 502, 200]);
  });

  it('gives up after the start timeout: onStartFailure gets an AppStartError and readiness keeps the reason', async () => {
    const failures: unknown[] = [];
    // Long enough for two attempts 20 ms apart on a loaded machine (100 ms once saw only one in CI).
    const { ready } = await mountOnFakeGitHub({ startTimeoutMs: 1_500, onStartFailure: (e) => failures.push(e) });
    const error = await eventually(async () => failures[0], 'onStartFailure');
    expect(AppStartError.isInstance(error)).toBe(true);
    expect((error as AppStartError).step).toBe('GET /app');
    expect((error as AppStartError).attempts).toBeGreaterThan(1);
    const r = await ready();
    expect(r.status).toBe(503);
    expect(r.body.reason).toContain('agent-mux could not start: GET /app failed');
  });
});
