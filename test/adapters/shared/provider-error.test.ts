import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_ERRORS } from '../../../src/adapters/agents/claude/claude-api-error.ts';
import { codexErrorTable } from '../../../src/adapters/agents/codex/codex-error-table.ts';
import { copilotErrorTable } from '../../../src/adapters/agents/copilot/copilot-error-table.ts';
import { cursorErrorTable } from '../../../src/adapters/agents/cursor/cursor-translator.ts';
import { geminiErrorTable } from '../../../src/adapters/agents/gemini/gemini-error-table.ts';
import { HERMES_PROVIDER_ERRORS } from '../../../src/adapters/agents/hermes/hermes-errors.ts';
import { OPENCLAW_PROVIDER_ERRORS } from '../../../src/adapters/agents/openclaw/openclaw-errors.ts';
import { OPENCODE_PROVIDER_ERRORS } from '../../../src/adapters/agents/opencode/opencode-errors.ts';
import { PI_ERRORS } from '../../../src/adapters/agents/pi/pi-error.ts';
import { ACP_PROVIDER_ERRORS } from '../../../src/adapters/protocols/acp/acp-provider-errors.ts';
import {
  COMMON_PROVIDER_ERRORS,
  httpStatusOf,
  type ProviderErrorKind,
  type ProviderErrorTable,
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

  it('answers a message read before with an equal draft of its own, per table, and honours options every time', () => {
    const table: ProviderErrorTable = { auth: { patterns: [/wrong badge/] }, authGuidance: 'Log in.' };
    const first = providerErrorDraft('wrong badge shown', table);
    expect(first).toEqual({ type: 'auth_error', message: 'wrong badge shown', guidance: 'Log in.' });
    // A caller changing its draft changes no later answer.
    (first as { message: string }).message = 'changed';
    const second = providerErrorDraft('wrong badge shown', table);
    expect(second).toEqual({ type: 'auth_error', message: 'wrong badge shown', guidance: 'Log in.' });
    expect(second).not.toBe(first);
    // Another table reads the same words by its own rules.
    expect(providerErrorDraft('wrong badge shown').type).toBe('error');
    // Options are not remembered: a status given decides, a retry delay given is used.
    expect(providerErrorDraft('wrong badge shown', table, { status: 429, retryAfterMs: 5 })).toEqual({
      type: 'rate_limit_error',
      message: 'wrong badge shown',
      retryAfterMs: 5,
    });
    expect(providerErrorDraft('wrong badge shown', table).type).toBe('auth_error');
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

  it('gives, with its one-scan shortcut, the answer of trying every rule in turn, for every table', () => {
    const tables: ProviderErrorTable[] = [
      {},
      CLAUDE_ERRORS,
      codexErrorTable,
      copilotErrorTable,
      cursorErrorTable,
      geminiErrorTable,
      HERMES_PROVIDER_ERRORS,
      OPENCLAW_PROVIDER_ERRORS,
      OPENCODE_PROVIDER_ERRORS,
      PI_ERRORS,
      ACP_PROVIDER_ERRORS,
      // A flag the shortcut cannot carry (`s`: `.` across lines) turns it off rather than missing a match.
      { context: { patterns: [/token.limit/s] } },
    ];
    const messages = [...recordedStrings(), 'unauthenticated', 'UNAUTHENTICATED', 'token\nlimit', 'Token\nLimit', ''];
    expect(messages.length).toBeGreaterThan(200);
    let kinds = 0;
    for (const table of tables) {
      for (const message of messages) {
        const expected = everyRuleInTurn(message, table);
        if (expected) kinds++;
        expect(providerErrorKind(message, table), `${message.slice(0, 80)} with ${JSON.stringify(table)}`).toBe(
          expected,
        );
      }
    }
    // The corpus holds errors of every kind, not only messages the rules pass over.
    expect(kinds).toBeGreaterThan(50);
  });
});

const KEYS = [
  ['auth', 'auth'],
  ['rate_limit', 'rateLimit'],
  ['context', 'context'],
  ['overloaded', 'overloaded'],
] as const;

/** The reference: statuses first, then each kind's common words and the table's, tried one by one. */
function everyRuleInTurn(message: string, table: ProviderErrorTable): ProviderErrorKind | undefined {
  const common = COMMON_PROVIDER_ERRORS;
  const status = httpStatusOf(message);
  if (status !== undefined) {
    for (const [kind, key] of KEYS) {
      if (common[key].statuses?.includes(status) || table[key]?.statuses?.includes(status)) return kind;
    }
  }
  for (const [kind, key] of KEYS) {
    const rules = [common[key], table[key]];
    if (rules.some((rule) => rule?.patterns?.some((pattern) => pattern.test(message)))) return kind;
  }
  return undefined;
}

/** Every string value in the recorded streams of every agent (errors among them), split into its lines too. */
function recordedStrings(): string[] {
  const root = join(import.meta.dirname, '../../fixtures/streams');
  const out = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length < 4000) out.add(value);
    } else if (value && typeof value === 'object') for (const child of Object.values(value)) walk(child);
  };
  for (const agent of readdirSync(root)) {
    for (const file of readdirSync(join(root, agent)).filter((name) => name.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(root, agent, file), 'utf8').split('\n')) {
        try {
          walk(JSON.parse(line));
        } catch {
          out.add(line);
        }
      }
    }
  }
  return [...out];
}
