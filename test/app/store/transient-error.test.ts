import { describe, expect, it } from 'vitest';
import { isTransientError, retryTransient } from '../../../src/app/store/transient-error.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isTransientError', () => {
  it('knows the failures a later attempt can outlive', () => {
    for (const code of ['57P01', '08006', '08003', '40001', '40P01', '57P03', 'ECONNRESET', 'ECONNREFUSED']) {
      expect(isTransientError(withCode(code)), code).toBe(true);
    }
    expect(isTransientError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientError(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isTransientError(Object.assign(new Error('Bad Gateway'), { status: 502 }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('rate'), { status: 429 }))).toBe(true);
    expect(isTransientError(new Error('wrapped', { cause: withCode('57P01') }))).toBe(true);
  });

  it('and the ones it cannot', () => {
    expect(isTransientError(withCode('23505', 'duplicate key'))).toBe(false);
    expect(isTransientError(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isTransientError(Object.assign(new Error('Not Found'), { status: 404 }))).toBe(false);
    expect(isTransientError(new Error('Bad credentials'))).toBe(false);
    expect(isTransientError('57P01')).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
  });
});

describe('retryTransient', () => {
  it('tries again after a transient failure, and gives up after the last attempt', async () => {
    let calls = 0;
    const retried: number[] = [];
    const value = await retryTransient(
      async () => {
        calls++;
        if (calls < 3) throw withCode('57P01');
        return 'done';
      },
      { firstDelayMs: 1, onRetry: (_error, attempt) => retried.push(attempt) },
    );
    expect(value).toBe('done');
    expect(retried).toEqual([1, 2]);
    calls = 0;
    await expect(
      retryTransient(
        async () => {
          calls++;
          throw withCode('08006', 'gone');
        },
        { attempts: 3, firstDelayMs: 1 },
      ),
    ).rejects.toThrow('gone');
    expect(calls).toBe(3);
  });

  it('does not retry another error', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls++;
        throw new Error('syntax error');
      }),
    ).rejects.toThrow('syntax error');
    expect(calls).toBe(1);
  });
});
