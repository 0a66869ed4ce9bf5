import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Probot } from 'probot';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { createAgentMuxApp, createNodeMiddleware } from '../../src/app/index.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';

/** A fresh RSA key for a test Probot's `privateKey` (PKCS #8 PEM). */
export function appPrivateKey(): string {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
}

/**
 * Serves a Node middleware (`createNodeMiddleware`'s, as a serverless host mounts it) on a free port
 * of 127.0.0.1, answering 404 where it passes; its close is pushed on `cleanups`. Returns the base URL.
 */
export async function serveMiddleware(
  middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => unknown,
  cleanups: (() => Promise<void>)[],
): Promise<string> {
  const server = createServer((req, res) => {
    void middleware(req, res, () => {
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The app (its loops off, data under `root`) mounted on `probot` with `createNodeMiddleware` and
 * served by `serveMiddleware`; stopping it is pushed on `cleanups`. Returns the webhook URL.
 */
export async function serveApp(
  options: { probot: Probot; store: RunStore; root: string },
  cleanups: (() => Promise<void>)[],
): Promise<string> {
  const app = createAgentMuxApp({
    store: options.store,
    settings: readAppSettings({ AGENT_MUX_DATA_DIR: options.root }),
    appSlug: 'agent-mux',
    startLoops: false,
  });
  const middleware = await createNodeMiddleware(app, { probot: options.probot });
  cleanups.push(() => app.stop());
  return `${await serveMiddleware(middleware, cleanups)}/api/github/webhooks`;
}
