import { describe, expect, it } from 'vitest';
import {
  httpStatusOf,
  providerErrorDraft,
  providerErrorKind,
  retryAfterMsOf,
} from '../../../src/adapters/shared/provider-error.ts';

describe('provider error classifier', () => {
  it('reads statuses before words', () => {
    expect(providerErrorKind('API Error: 401 rate limit')).toBe('auth');
    expect(providerErrorKind('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}')).toBe('rate_limit');
    expect(providerErrorKind('unexpected status 503 Service Unavailable: overloaded')).toBe('overloaded');
    expect(providerErrorKind('something else broke')).toBeUndefined();
  });

  it("adds an adapter's own table to the common words", () => {
    const table = { auth: { patterns: [/please run codex login/i] }, authGuidance: 'Run codex login.' };
    expect(providerErrorKind('please run codex login')).toBeUndefined();
    expect(providerErrorDraft('Please run codex login', table)).toEqual({
      type: 'auth_error',
      message: 'Please run codex login',
      guidance: 'Run codex login.',
    });
  });

  it('gives the typed drafts, with retry hints, and a fallback for the rest', () => {
    expect(providerErrorDraft('429 Too Many Requests, try again in 2 minutes')).toEqual({
      type: 'rate_limit_error',
      message: '429 Too Many Requests, try again in 2 minutes',
      retryAfterMs: 120_000,
    });
    expect(providerErrorDraft('maximum context length is 8192 tokens')).toEqual({
      type: 'context_exceeded',
      message: 'maximum context length is 8192 tokens',
    });
    expect(providerErrorDraft('boom')).toEqual({
      type: 'error',
      code: 'agent_error',
      message: 'boom',
      recoverable: false,
    });
    expect(providerErrorDraft('boom', {}, { fallback: { type: 'log', source: 'stderr', line: 'boom' } })).toEqual({
      type: 'log',
      source: 'stderr',
      line: 'boom',
    });
  });

  it('reads statuses and retry delays as providers print them', () => {
    expect(httpStatusOf('"code": 401')).toBe(401);
    expect(httpStatusOf('got status: 403')).toBe(403);
    expect(httpStatusOf('failed (429)')).toBe(429);
    expect(httpStatusOf('took 200 ms')).toBeUndefined();
    expect(retryAfterMsOf('"retryDelay": "1s"')).toBe(1000);
    expect(retryAfterMsOf('retry after 2.5s')).toBe(2500);
    expect(retryAfterMsOf('Retry-After: 3')).toBe(3000);
    expect(retryAfterMsOf('try again in 450ms')).toBe(450);
    expect(retryAfterMsOf('no hint')).toBeUndefined();
  });
});
