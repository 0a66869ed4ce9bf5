import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpAdapter } from '../../../../src/adapters/protocols/http/index.ts';
import type { HttpAdapterConfig } from '../../../../src/core/config/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { type StandInRemote, startStandInRemote } from './stand-in-remote.ts';

let dir = '';
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A key and a certificate signed by `ca` (or self-signed when `ca` is undefined). */
function issue(name: string, subject: string, ca?: string, san?: string): void {
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
  if (!ca) {
    openssl('req', '-x509', '-new', '-key', `${name}.key`, '-out', `${name}.crt`, '-days', '1', '-subj', subject);
    return;
  }
  openssl('req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
  const ext = [san ? `subjectAltName=${san}` : '', 'basicConstraints=CA:FALSE'].filter(Boolean).join('\n');
  writeFileSync(file(`${name}.ext`), `${ext}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '1',
    '-extfile',
    `${name}.ext`,
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-mux-mtls-'));
  issue('ca', '/CN=agent-mux test CA');
  issue('server', '/CN=127.0.0.1', 'ca', 'IP:127.0.0.1');
  issue('client', '/CN=agent-mux client', 'ca');
  issue('rogue-ca', '/CN=rogue CA');
  issue('rogue', '/CN=agent-mux client', 'rogue-ca');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const remotes: StandInRemote[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((r) => r.close()));
});

async function mtlsRemote(): Promise<StandInRemote> {
  const remote = await startStandInRemote({
    tls: {
      key: readFileSync(file('server.key'), 'utf8'),
      cert: readFileSync(file('server.crt'), 'utf8'),
      ca: readFileSync(file('ca.crt'), 'utf8'),
    },
    script: (s) => {
      s.send('complete', { type: 'complete', output: { over: 'mtls' } });
      s.end();
    },
  });
  remotes.push(remote);
  return remote;
}

const config = (baseUrl: string, client: string): HttpAdapterConfig => ({
  type: 'http',
  baseUrl,
  auth: { type: 'mtls', certPath: file(`${client}.crt`), keyPath: file(`${client}.key`), caPath: file('ca.crt') },
  protocol: 'ca-http-v1',
  maxConcurrentSessions: 1,
});

describe('http adapter over mutual TLS', () => {
  it('runs a session with a client certificate the remote trusts', async () => {
    const remote = await mtlsRemote();
    expect(remote.baseUrl.startsWith('https://')).toBe(true);
    const adapter = httpAdapter('pi', config(remote.baseUrl, 'client'));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: tmpdir() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('completed');
    expect(end.output).toEqual({ over: 'mtls' });
    expect(remote.deletedIds).toHaveLength(1);
    await vi.waitFor(() => {
      expect(remote.openSessions).toBe(0);
      expect(remote.openSockets).toBe(0);
    });
  });

  it('is refused with a client certificate from another CA: remote_unavailable, no session', async () => {
    const remote = await mtlsRemote();
    const adapter = httpAdapter('pi', config(remote.baseUrl, 'rogue'));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: tmpdir() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('crashed');
    expect(events.some((e) => e.type === 'error' && e.code === 'remote_unavailable')).toBe(true);
    expect(remote.createdBodies).toHaveLength(0);
    await vi.waitFor(() => expect(remote.openSockets).toBe(0));
  });

  it('fails with an auth reason when the certificate files cannot be read', async () => {
    const adapter = httpAdapter('pi', config('https://127.0.0.1:1', 'missing'));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: tmpdir() } }));
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('auth');
    expect(events.some((e) => e.type === 'auth_error')).toBe(true);
  });
});
