import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostSecrets } from '../../src/app/host-secrets.ts';
import { Redactor } from '../../src/core/redact/redactor.ts';

const pem = String(
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }),
);

describe('hostSecrets: the app’s own secrets are redacted from every run', () => {
  it('takes the webhook secret, the OAuth client secret and the database password', () => {
    const secrets = hostSecrets({
      WEBHOOK_SECRET: 'whsec-0123456789',
      DATABASE_URL: 'postgres://app:s3cr%40t-pass@db:5432/agentmux',
      GITHUB_CLIENT_SECRET: 'client-secret-abcdef',
    });
    const shown = new Redactor(secrets).redactString(
      'WEBHOOK_SECRET=whsec-0123456789 pw s3cr@t-pass client-secret-abcdef',
    );
    for (const secret of ['whsec-0123456789', 's3cr@t-pass', 'client-secret-abcdef'])
      expect(shown).not.toContain(secret);
  });

  it('ignores what is missing or too short to be a secret', () => {
    expect(hostSecrets({ WEBHOOK_SECRET: 'short', DATABASE_URL: 'postgres://db/x' })).toEqual([]);
  });

  it('the App’s private key is taken out by the redactor’s patterns, as a file or as an escaped .env line, whole or cut', () => {
    const redactor = new Redactor([]);
    const body = pem.split('\n')[3] ?? '';
    const escaped = `PRIVATE_KEY="${pem.replace(/\n/g, '\\n')}"`;
    for (const text of [pem, escaped, `cat: ${pem.slice(0, 600)}`]) {
      const shown = redactor.redactString(text);
      expect(shown).not.toContain(body.slice(0, 40));
      expect(shown).toContain('***');
    }
    expect(redactor.redactString('the word PRIVATE KEY in prose')).toBe('the word PRIVATE KEY in prose');
  });
});
