import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdapter } from '../../src/adapters/agents/demo/demo-adapter.ts';
import { type RemoteServerHandle, startRemoteServer } from '../../src/remote/index.ts';

let dir: string;
let server: RemoteServerHandle;
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A CA, a server certificate for 127.0.0.1 and a client certificate, all signed by the CA. */
async function makeCertificates(): Promise<void> {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=test-ca',
  );
  await writeFile(file('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const name of ['server', 'client']) {
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${name}`,
    );
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '1',
      ...(name === 'server' ? ['-extfile', 'server.ext'] : []),
    );
  }
}

function post(withClientCert: boolean): Promise<number> {
  return Promise.all([readFile(file('ca.pem')), readFile(file('client.pem')), readFile(file('client.key'))]).then(
    ([ca, cert, key]) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}/v1/sessions`,
          { method: 'POST', ca, ...(withClientCert ? { cert, key } : {}), agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('{}');
      }),
  );
}

describe('startRemoteServer with mTLS', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'remote-mtls-'));
    await makeCertificates();
    server = await startRemoteServer({
      adapter: demoAdapter(),
      auth: { type: 'mtls', certPath: file('server.pem'), keyPath: file('server.key'), caPath: file('ca.pem') },
      workspaceRoot: dir,
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves https to a client with a certificate signed by the CA', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await post(true)).toBe(400); // reached the handler: the empty body is a bad request
  });

  it('refuses a client without a certificate', async () => {
    await expect(post(false)).rejects.toThrow();
  });
});
