import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../../src/core/redact/redactor.ts';
import { turnRecordLine } from '../../../src/github/conversation/turn-record.ts';
import { runMarker } from '../../../src/github/report/render-tracking-comment.ts';

const token = 'ghs_worldTokenForTests0123456789abcdef';
const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('the redactor’s pre-check (what is searched with the full expression)', () => {
  it('a tracking comment as a run first writes it (its turn record is base64url JSON, `eyJ…`) is not searched', () => {
    const redactor = new Redactor([token, key, 'dummy-key-for-fake-model-1234']);
    const record = turnRecordLine({
      conversation: 12,
      turn: 1,
      job: 'delivery-1',
      agent: 'claude',
      at: '2026-12-03T12:00:00.000Z',
      instruction: 'why is test_login flaky? See the log at https://example.com/build/42',
    });
    const body = `${runMarker('run_1a2b3c')}\n${record}\n**agent-mux** is starting **claude**… ([check run](https://github.com/o/r/runs/7))`;
    expect(redactor.scans(body)).toBe(false);
    expect(redactor.redactString(body)).toBe(body);
  });

  it('a JWT, a declared secret and a token-shaped string still are, and are redacted', () => {
    const redactor = new Redactor([token]);
    for (const text of [`token ${jwt} here`, `the key ${token}`, `Bearer ${key}`]) {
      expect(redactor.scans(text), text).toBe(true);
      expect(redactor.redactString(text)).toContain(REDACTED);
    }
    expect(redactor.redactString(`token ${jwt} here`)).toBe(`token ${REDACTED} here`);
  });
});
