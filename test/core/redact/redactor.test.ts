import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, Redactor } from '../../../src/core/redact/redactor.ts';

// Tokens are assembled at run time so that no token-shaped literal sits in the repository.
const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
const tokens = {
  ghp: `ghp_${rep('aB3dE5fG7h', 36)}`,
  gho: `gho_${rep('Zy9Xw8', 36)}`,
  ghu: `ghu_${rep('k2L', 40)}`,
  ghs: `ghs_${rep('Q1w2E3', 36)}`,
  ghr: `ghr_${rep('r4T5y6', 36)}`,
  githubPat: `github_pat_${rep('11ABCDEFG0', 22)}_${rep('xYz123', 59)}`,
  openai: `sk-${rep('aZ09', 48)}`,
  openaiProject: `sk-proj-${rep('Ab1_-', 64)}`,
  anthropic: `sk-ant-api03-${rep('Xy7-', 80)}AA`,
  aws: `AKIA${rep('IOSFODNN7EXAMPL', 16)}`,
  slack: `xoxb-${rep('1234567890-', 30)}abc`,
  jwt: `eyJ${rep('hbGciOiJIUzI1NiJ9', 20)}.eyJ${rep('zdWIiOiIxMjM0In0', 24)}.${rep('SflKxwRJSMeKKF2QT4fw', 43)}`,
};

/** A normalized event the way an adapter would produce one, with `value` in a few nested places. */
function eventWith(value: string) {
  return {
    type: 'tool_result',
    runId: 'run_1',
    agent: 'codex',
    timestamp: 1,
    toolCallId: 'call_1',
    output: { stdout: `export TOKEN=${value}\n`, files: [{ path: 'a.txt', lines: ['ok', `key: ${value}`] }] },
  };
}

describe('Redactor: token patterns', () => {
  const redactor = new Redactor();

  it.each(Object.entries(tokens))('redacts %s tokens in nested event objects', (_kind, token) => {
    const event = eventWith(token);
    const redacted = redactor.redact(event);
    expect(JSON.stringify(redacted)).not.toContain(token);
    expect(redacted.output.stdout).toBe('export TOKEN=***\n');
    expect(redacted.output.files[0]?.lines).toEqual(['ok', 'key: ***']);
    // The original is untouched, unchanged branches are shared.
    expect(event.output.stdout).toContain(token);
    expect(redacted.runId).toBe('run_1');
  });

  it('keeps "Bearer" and the Authorization header name and scheme', () => {
    expect(redactor.redactString(`curl -H "Authorization: Bearer ${rep('abc123', 32)}" x`)).toBe(
      'curl -H "Authorization: Bearer ***" x',
    );
    expect(redactor.redactString(`authorization: token ${tokens.ghp}`)).toBe('authorization: token ***');
    expect(redactor.redactString('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic ***');
    expect(redactor.redactString(`{"authorization":"${rep('opaque', 24)}"}`)).toBe('{"authorization":"***"}');
    expect(redactor.redactString(`bearer ${rep('tok3n', 20)} and more`)).toBe('bearer *** and more');
  });

  it('leaves prose and look-alikes alone', () => {
    for (const text of [
      'Use a Bearer token in the Authorization header.',
      'Authorization: required for all endpoints',
      'the task-runner-for-everyone-in-the-team was sk-free',
      'ghp_short',
      'AKIA is a prefix',
      'git checkout -b fix/flaky-test',
      'eyJ alone is not a token',
    ]) {
      expect(redactor.redactString(text), text).toBe(text);
    }
  });

  it('redacts several tokens in one string', () => {
    expect(redactor.redactString(`a=${tokens.aws} b=${tokens.openai} c=${tokens.slack}`)).toBe('a=*** b=*** c=***');
  });
});

describe('Redactor: literal secrets', () => {
  it('redacts literal values, escaping regex metacharacters', () => {
    const secret = 'p4$$w0rd.(x)+[y]*?^|\\/{2}';
    const redactor = new Redactor([secret, 'hunter2-hunter2']);
    expect(redactor.redactString(`login with ${secret} now`)).toBe('login with *** now');
    expect(redactor.redactString('p4$$w0rdX(x)+[y]*?^|\\/{2}')).toBe('p4$$w0rdX(x)+[y]*?^|\\/{2}');
    expect(redactor.redact({ note: 'pw=hunter2-hunter2;' })).toEqual({ note: 'pw=***;' });
  });

  it(`ignores secrets shorter than ${MIN_SECRET_LENGTH} characters`, () => {
    const redactor = new Redactor(['abc', 'true', 'yes12', undefined]);
    expect(redactor.secretCount).toBe(0);
    expect(redactor.redactString('abc true yes12')).toBe('abc true yes12');
    expect(redactor.addSecret('short')).toBe(false);
  });

  it('replaces a secret that contains another one whole', () => {
    const redactor = new Redactor(['secret', 'secret-extended'], { patterns: false });
    expect(redactor.redactString('x secret-extended y secret z')).toBe('x *** y *** z');
  });

  it('addSecret takes effect immediately', () => {
    const redactor = new Redactor();
    const event = { text: 'the value is s3cr3t-value' };
    expect(redactor.redact(event)).toBe(event);
    expect(redactor.addSecret('s3cr3t-value')).toBe(true);
    expect(redactor.addSecret('s3cr3t-value')).toBe(false);
    expect(redactor.redact(event)).toEqual({ text: 'the value is ***' });
  });

  it('always hides any literal secret, wherever it appears', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 30 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (secret, before, after) => {
          fc.pre(!secret.includes('*'));
          const redactor = new Redactor([secret]);
          expect(redactor.redactString(before + secret + after)).not.toContain(secret);
        },
      ),
    );
  });
});

describe('Redactor: identity when nothing matches', () => {
  const redactor = new Redactor(['some-long-secret']);

  it('returns the very same objects and strings', () => {
    const event = {
      type: 'text_delta',
      runId: 'run_1',
      agent: 'claude',
      timestamp: 1,
      text: 'Hello, world! This is a perfectly ordinary line of output.',
      nested: { list: [1, 'two', { three: true, four: null }], empty: '' },
    };
    expect(redactor.redact(event)).toBe(event);
    expect(redactor.redact(event.nested.list)).toBe(event.nested.list);
    expect(redactor.redact('short')).toBe('short');
    expect(redactor.redact(42)).toBe(42);
    expect(redactor.redact(null)).toBe(null);
    expect(redactor.redact(undefined)).toBe(undefined);
  });

  it('copies only the path to a change', () => {
    const untouched = { a: 'plain text here' };
    const event = { left: untouched, right: { deep: ['x', 'use some-long-secret'] } };
    const redacted = redactor.redact(event);
    expect(redacted).not.toBe(event);
    expect(redacted.left).toBe(untouched);
    expect(redacted.right.deep).toEqual(['x', 'use ***']);
    expect(event.right.deep[1]).toBe('use some-long-secret');
  });

  it('leaves non-plain objects alone and survives cycles', () => {
    const date = new Date(0);
    const buffer = Buffer.from('some-long-secret');
    expect(redactor.redact({ date, buffer }).buffer).toBe(buffer);
    const cyclic: Record<string, unknown> = { text: 'plain text here' };
    cyclic.self = cyclic;
    expect(redactor.redact(cyclic)).toBe(cyclic);
  });

  it('with patterns off and no secrets, does nothing', () => {
    const event = { text: `token ${tokens.ghp}` };
    expect(new Redactor([], { patterns: false }).redact(event)).toBe(event);
  });
});
