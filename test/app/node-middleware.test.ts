import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Probot } from 'probot';
import { afterEach, describe, expect, it } from 'vitest';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { createAgentMuxApp, createNodeMiddleware } from '../../src/app/index.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

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
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const probot = new Probot({ appId: 1, privateKey, secret: SECRET, logLevel: 'fatal' });
    const app = createAgentMuxApp({
      store,
      settings: readAppSettings({ AGENT_MUX_DATA_DIR: root }),
      appSlug: 'agent-mux',
      startLoops: false,
    });
    const middleware = await createNodeMiddleware(app, { probot });
    cleanups.push(() => app.stop());
    const server: Server = createServer((req, res) => {
      void middleware(req, res, () => {
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;

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
