import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProbotProcess, startProbot } from './probot-process.ts';
import { sendWebhook, signWebhook } from './signed-webhook.ts';

const SECRET = 'harness-secret';
const entry = fileURLToPath(new URL('./fixtures/recording-app.ts', import.meta.url));

describe('signWebhook', () => {
  it('computes GitHub’s documented X-Hub-Signature-256 example', () => {
    // https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
    expect(signWebhook("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });
});

describe('probot run with a TypeScript entry', () => {
  let root: string;
  let record: string;
  let app: ProbotProcess | undefined;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'agent-mux-harness-'));
    record = join(root, 'events.log');
    await writeFile(record, '');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    app = await startProbot({
      entry,
      cwd: root,
      env: {
        APP_ID: '1',
        PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        WEBHOOK_SECRET: SECRET,
        LOG_LEVEL: 'fatal',
        E2E_RECORD_FILE: record,
      },
    });
  });

  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('answers /ping on the port it was given', async () => {
    const response = await fetch(`${app!.url}/ping`);
    expect(await response.text()).toBe('PONG');
  });

  it('refuses a delivery signed with another secret and handles a correctly signed one', async () => {
    const payload = { action: 'opened', zen: 'Keep it logically awesome.' };
    const forged = await sendWebhook(app!.webhookUrl, 'wrong-secret', { name: 'issues', payload });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('signature does not match');
    const genuine = await sendWebhook(app!.webhookUrl, SECRET, { name: 'issues', payload });
    expect(genuine.status).toBe(200);
    // Handlers finish before the 200, so the log is complete: only the genuine delivery reached the app.
    expect(await readFile(record, 'utf8')).toBe(`issues ${genuine.deliveryId}\n`);
  });

  it('refuses a delivery whose body was changed after signing', async () => {
    const body = JSON.stringify({ action: 'opened' });
    const response = await fetch(app!.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issues',
        'x-github-delivery': 'tampered-1',
        'x-hub-signature-256': signWebhook(SECRET, body),
      },
      body: JSON.stringify({ action: 'closed' }),
    });
    expect(response.status).toBe(400);
    expect(await readFile(record, 'utf8')).not.toContain('tampered-1');
  });

  it('stops on SIGTERM', async () => {
    await app!.stop();
    expect(app!.child.exitCode !== null || app!.child.signalCode !== null).toBe(true);
    app = undefined;
  });
});
