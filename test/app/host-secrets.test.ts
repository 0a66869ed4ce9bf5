import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostSecrets } from '../../src/app/host-secrets.ts';
import { Redactor } from '../../src/core/redact/redactor.ts';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' });

describe('hostSecrets: the app’s own secrets are redacted from every run', () => {
  it('takes the webhook secret, the private key (escaped, whole and line by line) and the database password', () => {
    const escaped = String(pem).replace(/\n/g, '\\n');
    const secrets = hostSecrets({
      WEBHOOK_SECRET: 'whsec-0123456789',
      PRIVATE_KEY: escaped,
      DATABASE_URL: 'postgres://app:s3cr%40t-pass@db:5432/agentmux',
      GITHUB_CLIENT_SECRET: 'client-secret-abcdef',
    });
    const redactor = new Redactor(secrets);
    const bodyLine = String(pem).split('\n')[3] ?? '';
    const leaked = `WEBHOOK_SECRET=whsec-0123456789\n${pem}\npart: ${bodyLine}\npw s3cr@t-pass client-secret-abcdef`;
    const shown = redactor.redactString(leaked);
    for (const secret of ['whsec-0123456789', bodyLine, 's3cr@t-pass', 'client-secret-abcdef'])
      expect(shown).not.toContain(secret);
  });

  it('reads PRIVATE_KEY_PATH, and ignores what is missing or too short to be a secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-key-'));
    try {
      writeFileSync(join(dir, 'key.pem'), pem);
      const secrets = hostSecrets({ PRIVATE_KEY_PATH: join(dir, 'key.pem'), WEBHOOK_SECRET: 'short' });
      expect(secrets).toContain(String(pem).trim());
      expect(secrets).not.toContain('short');
      expect(hostSecrets({ PRIVATE_KEY_PATH: join(dir, 'missing.pem'), DATABASE_URL: 'postgres://db/x' })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
