import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiKeyAuth } from '../../../src/adapters/shared/api-key-auth.ts';
import { firstSetEnv } from '../../../src/adapters/shared/first-set-env.ts';
import { hasCredentialsFile } from '../../../src/adapters/shared/has-credentials-file.ts';
import { readSmallText } from '../../../src/adapters/shared/read-small-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'agent-mux-auth-helpers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('apiKeyAuth', () => {
  it('lists every key set to a non-blank value, in order', () => {
    expect(apiKeyAuth(['A_KEY', 'B_KEY', 'C_KEY'], { C_KEY: 'c', A_KEY: 'a', B_KEY: '  ' })).toEqual({
      status: 'authenticated',
      method: 'api_key',
      details: ['A_KEY', 'C_KEY'],
    });
  });

  it('gives undefined when none is set, so the check goes on', () => {
    expect(apiKeyAuth(['A_KEY'], { A_KEY: '' })).toBeUndefined();
    expect(apiKeyAuth([], { A_KEY: 'a' })).toBeUndefined();
  });
});

describe('readSmallText', () => {
  it('reads a small file', () => {
    const file = join(dir, 'small.env');
    writeFileSync(file, 'KEY=1\n');
    expect(readSmallText(file)).toBe('KEY=1\n');
  });

  it('gives undefined for a missing file, a directory, or one past the limit', () => {
    expect(readSmallText(join(dir, 'missing'))).toBeUndefined();
    expect(readSmallText(dir)).toBeUndefined();
    const big = join(dir, 'big.env');
    writeFileSync(big, 'x'.repeat(20));
    expect(readSmallText(big, 10)).toBeUndefined();
    expect(readSmallText(big, 20)).toBe('x'.repeat(20));
  });
});

describe('firstSetEnv', () => {
  it('names the first key set to a non-blank value', () => {
    expect(firstSetEnv(['A_KEY', 'B_KEY', 'C_KEY'], { A_KEY: ' ', B_KEY: 'b', C_KEY: 'c' })).toBe('B_KEY');
    expect(firstSetEnv(['A_KEY'], {})).toBeUndefined();
  });
});

describe('hasCredentialsFile', () => {
  it('is true for a file with more than an empty object in it', () => {
    const full = join(dir, 'creds.json');
    writeFileSync(full, '{"token":"x"}');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '{}');
    expect(hasCredentialsFile(full)).toBe(true);
    expect(hasCredentialsFile(empty)).toBe(false);
    expect(hasCredentialsFile(join(dir, 'missing.json'))).toBe(false);
  });
});
