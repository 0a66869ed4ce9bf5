import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
